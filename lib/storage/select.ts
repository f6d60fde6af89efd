import type { Config } from "../config.ts";
import type { Sql } from "../../db/client.ts";
import type { StorageProvider } from "./provider.ts";
import { createPostgresStorage } from "./postgres.ts";
import type { S3Settings } from "./s3.ts";

/**
 * The S3-compatible provider when S3_BUCKET is set (with S3_ENDPOINT, S3_REGION, the keys and
 * S3_FORCE_PATH_STYLE as configured), otherwise the Postgres provider on `sql`, which needs
 * nothing more and works on the embedded database.
 */
export function createStorageProvider(config: Config, sql: Sql): StorageProvider {
  if (config.S3_BUCKET) return lazyS3Storage({ ...config, S3_BUCKET: config.S3_BUCKET });
  return createPostgresStorage(sql);
}

/**
 * The S3 provider, its module (and the AWS SDK, ~8 MB of heap and ~28 MB resident once loaded)
 * imported on first use: a server storing files in Postgres, the default, never loads it.
 */
function lazyS3Storage(settings: S3Settings): StorageProvider {
  let provider: Promise<StorageProvider> | undefined;
  const load = () => provider ??= import("./s3.ts").then((m) => m.createS3Storage(settings));
  return {
    kind: "s3",
    put: async (key, body, options) => (await load()).put(key, body, options),
    get: async (key) => (await load()).get(key),
    delete: async (keys) => (await load()).delete(keys),
  };
}
