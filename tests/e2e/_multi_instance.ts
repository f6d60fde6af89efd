/**
 * Several real server processes (`deno run -A main.ts`) on one Postgres database and one KV
 * file, behind an nginx from Debian's packages as a round-robin load balancer: the set-up
 * issue 13 asks the end-to-end suite to pass through (E2E_INSTANCES=2, tests/e2e/_browser.ts)
 * and tests/platform/multi_instance_test.ts checks directly.
 */
import { DENO_RUN } from "../_deno.ts";

/** A TCP port nobody listens on right now. */
export function freePort(): number {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  return port;
}

/** One server process (`deno run -A main.ts`). */
export interface Instance {
  child: Deno.ChildProcess;
  port: number;
  origin: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Whether the process is still up (it has not exited, crashed or been stopped). */
  isRunning(): boolean;
  /**
   * SIGTERM, as an orchestrator stops an instance: the job worker finishes its pass and the
   * Postgres connections close before the next test empties the tables. Still up after
   * 15 s: killed. Resolves with the exit code.
   */
  stop(): Promise<number>;
}

/**
 * Starts main.ts on a free port with `env` added (over the test process's environment) and
 * resolves once it listens; rejects with its output if it exits or is not listening within
 * 60 s. node_modules/ is left as it is (tests/_deno.ts): two servers start at once here.
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const dataDir = await Deno.makeTempDir({ prefix: "meridian-instance-" });
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [...DENO_RUN, "main.ts"],
    cwd: new URL("../../", import.meta.url),
    env: { DATA_DIR: dataDir, KV_URL: "", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  let wake = () => {};
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      output += decoder.decode(chunk, { stream: true });
      wake();
    }
  };
  const pumped = Promise.all([pump(child.stdout), pump(child.stderr)]);
  let exitCode: number | undefined;
  const exited = child.status.then(async (status) => {
    await pumped;
    exitCode = status.code;
    wake();
    return status.code;
  });
  const cleanUp = () => Deno.remove(dataDir, { recursive: true }).catch(() => {});
  const deadline = Date.now() + 60_000;
  while (!output.includes("Meridian listening on")) {
    if (exitCode !== undefined || Date.now() > deadline) {
      if (exitCode === undefined) child.kill("SIGKILL");
      await exited;
      await cleanUp();
      throw new Error(`the server on port ${port} did not start:\n${output}`);
    }
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, 100);
    });
  }
  return {
    child,
    port,
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    isRunning: () => exitCode === undefined,
    async stop() {
      if (exitCode === undefined) child.kill("SIGTERM");
      const timer = setTimeout(() => {
        if (exitCode === undefined) child.kill("SIGKILL");
      }, 15_000);
      const code = await exited;
      clearTimeout(timer);
      await cleanUp();
      return code;
    },
  };
}

/** Where Debian's nginx package installs the binary; NGINX_PATH overrides. */
export const NGINX_PATH = Deno.env.get("NGINX_PATH") ?? "/usr/sbin/nginx";

/** How many server processes each end-to-end test runs behind nginx (1: the in-process app). */
export const E2E_INSTANCES = Number(Deno.env.get("E2E_INSTANCES") || "1");

/** Whether the nginx binary is there. */
export function nginxPresent(): boolean {
  try {
    return Deno.statSync(NGINX_PATH).isFile;
  } catch {
    return false;
  }
}

/** One request in nginx's access log. */
export interface AccessLogLine {
  /** "127.0.0.1:PORT" of the instance that answered ("-" when none did). */
  upstream: string;
  status: number;
  method: string;
  path: string;
}

/** A running nginx and what its access log says about where requests went. */
export interface Nginx {
  port: number;
  origin: string;
  /**
   * Every request answered so far, in order, with the upstream that answered it. A request's
   * line is written just after its answer is sent: read after `stop()` to be sure of the last.
   */
  accessLog(): Promise<AccessLogLine[]>;
  /** Requests answered so far, by the upstream that answered them ("127.0.0.1:PORT"). */
  requestsByUpstream(): Promise<Map<string, number>>;
  /** Stops nginx (at once: no request of ours is in flight) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * The nginx configuration: one server on `port` proxying round-robin to `upstreams`, with
 * the forwarding headers a proxy in front of the app sets (the app reads X-Forwarded-For
 * and X-Forwarded-Proto under TRUST_PROXY=1). Every path lives under `prefix`, so nothing
 * of the system's nginx (its /etc config, /var/log, the pid file) is touched.
 */
export function nginxConfig(
  { prefix, port, upstreams, runAsRoot, identity }: {
    prefix: string;
    port: number;
    upstreams: number[];
    runAsRoot: boolean;
    /** What this nginx answers at NGINX_IDENTITY_PATH, so a start can tell it is the one listening. */
    identity: string;
  },
): string {
  return `${runAsRoot ? "user root;\n" : ""}daemon off;
master_process on;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 512; }
http {
  log_format upstreams '$upstream_addr $status $request_method $uri';
  access_log ${prefix}/access.log upstreams;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  # The app enforces its own body limits (25 MB uploads, 413 JSON above them).
  client_max_body_size 0;
  upstream meridian {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location = ${NGINX_IDENTITY_PATH} {
      access_log off;
      return 200 "${identity}";
    }
    location / {
      proxy_pass http://meridian;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
    }
  }
}
`;
}

/** Where nginx answers its own identity (never proxied, never logged). */
const NGINX_IDENTITY_PATH = "/__meridian_test_nginx";

/** nginx could not listen on its port: another process had taken it since it was picked. */
export class NginxPortTakenError extends Error {}

/** Whether `origin` is the nginx that answers `identity`, not another process on its port. */
async function answersAs(origin: string, identity: string): Promise<boolean> {
  try {
    const res = await fetch(`${origin}${NGINX_IDENTITY_PATH}`);
    return (await res.text()) === identity;
  } catch {
    return false;
  }
}

/**
 * Starts nginx on `port` in front of `upstreams` and resolves once it answers there as itself:
 * the port is picked free before the instances start, and in the seconds between another
 * process (a test's server) may take it. A mere connect then succeeded on that process, and a
 * test passed against it with nothing through nginx (CI: "requests per instance: 0, 0").
 * Throws NginxPortTakenError when nginx cannot listen.
 */
export async function startNginx(port: number, upstreams: number[]): Promise<Nginx> {
  const prefix = await Deno.makeTempDir({ prefix: "meridian-nginx-" });
  const conf = `${prefix}/nginx.conf`;
  const identity = crypto.randomUUID();
  await Deno.writeTextFile(
    conf,
    nginxConfig({ prefix, port, upstreams, runAsRoot: Deno.uid() === 0, identity }),
  );
  const child = new Deno.Command(NGINX_PATH, {
    // -e: the start-up error log too, before the config's error_log is read.
    args: ["-p", prefix, "-c", conf, "-e", `${prefix}/error.log`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = Date.now() + 15_000;
  while (!(await answersAs(`http://127.0.0.1:${port}`, identity))) {
    if (exited || Date.now() > deadline) {
      if (!exited) child.kill("SIGKILL");
      await child.status;
      const log = await Deno.readTextFile(`${prefix}/error.log`).catch(() => "");
      await Deno.remove(prefix, { recursive: true }).catch(() => {});
      const message = `nginx did not start on port ${port}:\n${await stderr}${log}`;
      throw /Address already in use/.test(message)
        ? new NginxPortTakenError(message)
        : new Error(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Read at stop, before the folder goes: nginx writes a request's line just after sending
  // its answer, so only a stopped nginx's log is sure to hold the last request.
  let finalLog: AccessLogLine[] | undefined;
  const accessLog = async (): Promise<AccessLogLine[]> => {
    if (finalLog) return finalLog;
    const log = await Deno.readTextFile(`${prefix}/access.log`).catch(() => "");
    return log.split("\n").filter(Boolean).map((line) => {
      // "$upstream_addr" lists every upstream tried, ", " between them; the last one answered.
      const match = /^(.*) (\d{3}) (\S+) (\S*)$/.exec(line);
      if (!match) throw new Error(`unexpected nginx access log line: ${line}`);
      return {
        upstream: match[1].split(",").at(-1)!.trim(),
        status: Number(match[2]),
        method: match[3],
        path: match[4],
      };
    });
  };
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    accessLog,
    async requestsByUpstream() {
      const counts = new Map<string, number>();
      for (const { upstream } of await accessLog()) {
        if (upstream !== "-") counts.set(upstream, (counts.get(upstream) ?? 0) + 1);
      }
      return counts;
    },
    async stop() {
      if (finalLog) return;
      if (!exited) {
        // SIGTERM is nginx's fast shutdown; its workers write their last log lines first.
        child.kill("SIGTERM");
      }
      await child.status;
      await stderr;
      finalLog = await accessLog();
      await Deno.remove(prefix, { recursive: true }).catch(() => {});
    },
  };
}

/** Server processes on one database and KV file, and the nginx in front of them. */
export interface Cluster {
  /** nginx's origin, which is also every instance's PUBLIC_URL. */
  origin: string;
  instances: Instance[];
  nginx: Nginx;
  /** Requests each instance answered through nginx so far, in `instances` order. */
  requestsPerInstance(): Promise<number[]>;
  /** For a failed test: nginx's 5xx answers and the end of each instance's output. */
  diagnosis(): Promise<string>;
  /**
   * Stops nginx, then every instance (SIGTERM: graceful); resolves with their exit codes, in
   * `instances` order. Calling it again returns the same answer.
   */
  stop(): Promise<number[]>;
}

/**
 * Starts `instances` servers at the same moment (so their start-up migrations race, as in a
 * rolling deploy) with NODE_ENV=production, TRUST_PROXY=1, PUBLIC_URL = nginx's origin
 * (`http://127.0.0.1:<nginxPort>`) and `env` added, then nginx on `nginxPort` in front of
 * them. The caller picks the port (`freePort`) so that what it builds before the servers
 * (the CSRF origin, session cookie names) already knows the origin.
 */
export async function startCluster(
  { instances: count = 2, nginxPort, env }: {
    instances?: number;
    nginxPort: number;
    env: Record<string, string>;
  },
): Promise<Cluster> {
  const origin = `http://127.0.0.1:${nginxPort}`;
  const started = await Promise.allSettled(
    Array.from({ length: count }, () =>
      startInstance({
        NODE_ENV: "production",
        TRUST_PROXY: "1",
        PUBLIC_URL: origin,
        // Kept in memory and shown when a test fails (`Cluster.diagnosis`).
        LOG_REQUESTS: "1",
        ...env,
      })),
  );
  const instances = started.flatMap((s) => s.status === "fulfilled" ? [s.value] : []);
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await Promise.all(instances.map((i) => i.stop()));
    throw failed.reason;
  }
  let nginx: Nginx;
  try {
    nginx = await startNginx(nginxPort, instances.map((i) => i.port));
  } catch (err) {
    await Promise.all(instances.map((i) => i.stop()));
    throw err;
  }
  let stopped: Promise<number[]> | undefined;
  return {
    origin,
    instances,
    nginx,
    async requestsPerInstance() {
      const counts = await nginx.requestsByUpstream();
      return instances.map((i) => counts.get(`127.0.0.1:${i.port}`) ?? 0);
    },
    async diagnosis() {
      const failures = (await nginx.accessLog()).filter((line) => line.status >= 500);
      return [
        `nginx answered ${failures.length} requests with a 5xx:`,
        ...failures.map((l) => `  ${l.status} ${l.method} ${l.path} from ${l.upstream}`),
        ...instances.map((i) =>
          `instance on port ${i.port}, last lines:\n${i.output().split("\n").slice(-40).join("\n")}`
        ),
      ].join("\n");
    },
    stop() {
      stopped ??= nginx.stop().then(() => Promise.all(instances.map((i) => i.stop())));
      return stopped;
    },
  };
}
