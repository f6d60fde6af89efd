import type { Config } from "../config.ts";
import type { Sql } from "../../db/client.ts";
import type { StorageProvider } from "./provider.ts";
import { createPostgresStorage } from "./postgres.ts";
import { createS3Storage } from "./s3.ts";

/**
 * The S3-compatible provider when S3_BUCKET is set (with S3_ENDPOINT, S3_REGION, the keys and
 * S3_FORCE_PATH_STYLE as configured), otherwise the Postgres provider on `sql`, which needs
 * nothing more and works on the embedded database.
 */
export function createStorageProvider(config: Config, sql: Sql): StorageProvider {
  if (config.S3_BUCKET) return createS3Storage({ ...config, S3_BUCKET: config.S3_BUCKET });
  return createPostgresStorage(sql);
}
