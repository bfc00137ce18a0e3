#!/usr/bin/env node
// `node scripts/check-deploy-kit.mjs`: checks the deployment kit (deploy/, .env.example) against the code.
//   1. .env.example lists exactly the variables of the server's env schema
//      (apps/server/src/config/env-schema.ts), each once, each under a one-line comment, secrets empty;
//   2. the kit agrees with the code's numbers: nginx closes idle upstream connections before Node does,
//      nginx's body limits let the app's own limits answer, the realtime path, the units' stop timeout;
//   3. `nginx -t` accepts deploy/nginx/offzero.conf inside a main config like Debian's, in a temporary
//      prefix (skipped when nginx or openssl is not installed);
//   4. `systemd-analyze verify` accepts the units in deploy/systemd (skipped when it is not installed);
//   5. promtool accepts the Prometheus configuration and alert rules in deploy/prometheus, and the
//      rules' unit tests pass (skipped when promtool is not installed).
// Plain Node, no dependencies. Ends with "deploy kit: N passed, N failed".
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const read = (file) => readFileSync(path.join(root, file), 'utf8');

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n     ${detail.replaceAll('\n', '\n     ')}`}`,
  );
}
function skip(name, why) {
  console.log(`skip ${name}: ${why}`);
}

// --- 1. .env.example against the env schema ---

const configSource = read('apps/server/src/config/env-schema.ts');

/** The keys of `export const envSchema = z.object({ … })`: its lines indented by exactly two spaces. */
function envSchemaKeys(source) {
  const start = source.indexOf('export const envSchema = z.object({');
  const end = source.indexOf('\n});', start);
  if (start === -1 || end === -1) return [];
  return [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]);
}

/** `NAME=value` lines, and `# NAME=value` ones (listed, left at the server's default). */
function envExampleEntries(text) {
  const lines = text.split('\n');
  return lines.flatMap((line, index) => {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) return [];
    return [
      {
        name: match[2],
        value: match[3],
        line: index + 1,
        above: lines[index - 1] ?? '',
      },
    ];
  });
}

const schemaKeys = envSchemaKeys(configSource);
// A broken parse would make every comparison below vacuous.
check(
  'the env schema in env-schema.ts is found and read',
  schemaKeys.length >= 30,
  `found ${schemaKeys.length} keys`,
);

const envExample = read('.env.example');
const entries = envExampleEntries(envExample);
const listed = entries.map((entry) => entry.name);
const missing = schemaKeys.filter((key) => !listed.includes(key));
const unknown = listed.filter((name) => !schemaKeys.includes(name));
const duplicated = listed.filter((name, index) => listed.indexOf(name) !== index);
check(
  '.env.example lists every variable of the env schema',
  missing.length === 0,
  `missing: ${missing.join(', ')}`,
);
check(
  '.env.example lists no variable the server does not read',
  unknown.length === 0,
  `not in the schema: ${unknown.join(', ')}`,
);
check('.env.example lists each variable once', duplicated.length === 0, `twice: ${duplicated.join(', ')}`);

const isVariableLine = (line) => /^(#\s*)?[A-Z][A-Z0-9_]*=/.test(line);
const uncommented = entries.filter((entry) => !/^#\s+\S/.test(entry.above) || isVariableLine(entry.above));
check(
  '.env.example explains each variable in a comment line above it',
  uncommented.length === 0,
  uncommented.map((entry) => `line ${entry.line}: ${entry.name}`).join('\n'),
);

// A secret's example must be empty: a placeholder that passes validation would be a known secret.
const SECRET_NAME = /(SECRET|TOKEN|PASSWORD|_KEY)$|_SECRET_|_AUTH_/;
const filledSecrets = entries.filter((entry) => SECRET_NAME.test(entry.name) && entry.value.trim() !== '');
check(
  '.env.example leaves every secret empty',
  filledSecrets.length === 0,
  filledSecrets.map((entry) => `line ${entry.line}: ${entry.name}`).join('\n'),
);

// --- 2. The kit against the code's numbers ---

const nginxConf = read('deploy/nginx/offzero.conf');

/** nginx sizes and times: `128k`, `6m`, `60s`, `1h`, or a bare number (bytes / seconds). */
function nginxValue(text) {
  const match = /^(\d+)([kmgsh]?)$/i.exec(text.trim());
  if (!match) return NaN;
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, s: 1, h: 3600 }[match[2].toLowerCase()];
  return Number(match[1]) * scale;
}
/** The body of `<opening> { … }` (no nested blocks inside, as for upstream and location blocks). */
function block(text, opening) {
  const start = text.indexOf(`${opening} {`);
  return start === -1 ? '' : text.slice(start, text.indexOf('}', start));
}
/** A product of integers such as `5 * 1024 * 1024`, as written in the source after `name = `. */
function sourceConstant(source, name) {
  const match = new RegExp(`${name} = ([\\d_ *]+);`).exec(source);
  return match
    ? match[1].split('*').reduce((product, factor) => product * Number(factor.replaceAll('_', '').trim()), 1)
    : NaN;
}

const upstreamKeepalive = nginxValue(
  /keepalive_timeout\s+([^;]+);/.exec(block(nginxConf, 'upstream offzero_web'))?.[1] ?? '',
);
const nodeKeepalive = Number(/HTTP_KEEP_ALIVE_TIMEOUT_SECONDS:.*\.default\((\d+)\)/.exec(configSource)?.[1]);
check(
  'nginx closes idle upstream connections before Node does (keepalive_timeout < HTTP_KEEP_ALIVE_TIMEOUT_SECONDS)',
  upstreamKeepalive > 0 && nodeKeepalive > 0 && upstreamKeepalive < nodeKeepalive,
  `nginx ${upstreamKeepalive} s, Node ${nodeKeepalive} s`,
);

const appBodyLimit = sourceConstant(read('apps/server/src/app.ts'), 'BODY_LIMIT_BYTES');
const serverBodyLimit = nginxValue(/^ {4}client_max_body_size\s+([^;]+);/m.exec(nginxConf)?.[1] ?? '');
check(
  "nginx's default body limit lets the app's JSON limit answer first",
  serverBodyLimit >= appBodyLimit && serverBodyLimit <= 2 * appBodyLimit,
  `nginx ${serverBodyLimit} bytes, app ${appBodyLimit} bytes`,
);

const kycImageLimit = sourceConstant(read('packages/shared/src/api/kyc.ts'), 'KYC_MAX_IMAGE_BYTES');
const kycRoutes = read('apps/server/src/kyc/kyc.routes.ts');
const kycPath = /uploads\.post\(\s*'([^']+)'/.exec(kycRoutes)?.[1] ?? '';
const kycBodyLimit = nginxValue(
  /client_max_body_size\s+([^;]+);/.exec(block(nginxConf, `location = ${kycPath}`))?.[1] ?? '',
);
check(
  `nginx lets the KYC upload (${kycPath}) through: ${kycImageLimit} bytes of image and the form`,
  kycPath !== '' && kycBodyLimit >= kycImageLimit + 64 * 1024,
  `nginx ${kycBodyLimit} bytes for ${kycPath || '(upload route not found)'}`,
);

const realtimePath = /REALTIME_PATH = '([^']+)'/.exec(read('packages/shared/src/api/realtime.ts'))?.[1] ?? '';
const realtimeBlock = block(nginxConf, `location = ${realtimePath}`);
check(
  `nginx upgrades ${realtimePath || 'the realtime path'} to a WebSocket with a long read timeout`,
  realtimePath !== '' &&
    realtimeBlock !== '' &&
    /proxy_set_header Upgrade \$http_upgrade;/.test(nginxConf) &&
    /proxy_set_header Connection \$connection_upgrade;/.test(nginxConf) &&
    nginxValue(/proxy_read_timeout\s+([^;]+);/.exec(realtimeBlock)?.[1] ?? '') >= 300,
);

// Idempotent retries only: `non_idempotent` would let nginx send a POST (an order) twice.
check(
  'nginx retries on another process for idempotent requests only',
  /proxy_next_upstream\s+error timeout[^;]*;/.test(nginxConf) &&
    !/non_idempotent/.test(nginxConf.replace(/#.*$/gm, '')),
);

const drainSeconds = Number(entries.find((entry) => entry.name === 'SHUTDOWN_DRAIN_SECONDS')?.value);
const forcedExitAfterDrainMs = Number(
  /config\.shutdownDrainMs \+ (\d[\d_]*)/.exec(read('apps/server/src/main.ts'))?.[1]?.replaceAll('_', ''),
);
for (const unit of ['offzero-web@.service', 'offzero-worker.service']) {
  const text = read(`deploy/systemd/${unit}`);
  const stopSeconds = nginxValue(/^TimeoutStopSec=(.+)$/m.exec(text)?.[1] ?? '');
  check(
    `${unit} waits longer than the drain and the forced exit (TimeoutStopSec > drain + ${forcedExitAfterDrainMs / 1000} s)`,
    stopSeconds > drainSeconds + forcedExitAfterDrainMs / 1000 && /^KillSignal=SIGTERM$/m.test(text),
    `TimeoutStopSec ${stopSeconds} s, SHUTDOWN_DRAIN_SECONDS ${drainSeconds} s`,
  );
}

// --- 3. nginx -t ---

/** The first of these commands that runs, or undefined. */
function findCommand(candidates, versionArgs) {
  return candidates.find((command) => spawnSync(command, versionArgs, { stdio: 'ignore' }).status === 0);
}

/** Ports nothing listens on now, from the kernel. */
async function findFreePorts(count) {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = net.createServer();
      return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
    }),
  );
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

const nginx = findCommand(['nginx', '/usr/sbin/nginx'], ['-v']);
const openssl = findCommand(['openssl'], ['version']);
if (!nginx || !openssl) {
  skip('nginx -t on deploy/nginx/offzero.conf', `${nginx ? 'openssl' : 'nginx'} is not installed`);
} else {
  const freePorts = await findFreePorts(4);
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'offzero-nginx-'));
  try {
    for (const dir of ['logs', 'ssl', 'temp']) mkdirSync(path.join(prefix, dir));
    // A throwaway self-signed certificate stands in for the real one.
    const certificate = spawnSync(
      openssl,
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=offzero.example',
        '-keyout',
        path.join(prefix, 'ssl/privkey.pem'),
        '-out',
        path.join(prefix, 'ssl/fullchain.pem'),
      ],
      { encoding: 'utf8' },
    );
    // The kit's absolute paths (certificates, logs) point into the temporary prefix instead, and it
    // listens on free loopback ports: `nginx -t` binds them, and 80 and 443 need root and may be taken.
    const ports = new Map();
    const kit = nginxConf
      .replaceAll('/etc/ssl/offzero/', `${prefix}/ssl/`)
      .replaceAll('/var/log/nginx/', `${prefix}/logs/`)
      .replace(/^\s*listen \[::\]:.*$/gm, '')
      .replace(/listen (\d+)/g, (_match, port) => {
        if (!ports.has(port)) ports.set(port, freePorts.shift());
        return `listen 127.0.0.1:${ports.get(port)}`;
      });
    writeFileSync(path.join(prefix, 'offzero.conf'), kit);
    const mimeTypes = ['/etc/nginx/mime.types', '/usr/local/etc/nginx/mime.types'].find((file) =>
      existsSync(file),
    );
    // Like Debian's nginx.conf: http-level gzip and ssl_protocols are already set there, so the kit
    // must set them per server (nginx refuses a directive repeated in one block).
    const temp = (name) => `${prefix}/temp/${name}`;
    writeFileSync(
      path.join(prefix, 'nginx.conf'),
      [
        `pid ${prefix}/nginx.pid;`,
        `error_log ${prefix}/logs/error.log;`,
        'events { worker_connections 64; }',
        'http {',
        mimeTypes ? `  include ${mimeTypes};` : '',
        '  default_type application/octet-stream;',
        '  sendfile on;',
        '  ssl_protocols TLSv1.2 TLSv1.3;',
        `  access_log ${prefix}/logs/access.log;`,
        '  gzip on;',
        `  client_body_temp_path ${temp('body')}; proxy_temp_path ${temp('proxy')}; fastcgi_temp_path ${temp('fastcgi')};`,
        `  uwsgi_temp_path ${temp('uwsgi')}; scgi_temp_path ${temp('scgi')};`,
        `  include ${prefix}/offzero.conf;`,
        '}',
        '',
      ].join('\n'),
    );
    const result =
      certificate.status === 0
        ? spawnSync(
            nginx,
            ['-t', '-q', '-p', `${prefix}/`, '-e', `${prefix}/logs/error.log`, '-c', `${prefix}/nginx.conf`],
            {
              encoding: 'utf8',
            },
          )
        : { status: 1, stderr: `openssl could not make a test certificate:\n${certificate.stderr}` };
    check('nginx -t accepts deploy/nginx/offzero.conf', result.status === 0, (result.stderr ?? '').trim());
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
}

// --- 4. systemd-analyze verify ---

const systemdAnalyze = findCommand(['systemd-analyze'], ['--version']);
if (!systemdAnalyze) {
  skip('systemd-analyze verify on deploy/systemd', 'systemd-analyze is not installed');
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offzero-systemd-'));
  try {
    // verify checks that ExecStart's program exists: the release folder's node is this one.
    mkdirSync(path.join(dir, 'release/node_modules/.bin'), { recursive: true });
    symlinkSync(process.execPath, path.join(dir, 'release/node_modules/.bin/node'));
    const units = readdirSync(path.join(root, 'deploy/systemd')).filter((file) =>
      /\.(service|target)$/.test(file),
    );
    for (const unit of units) {
      const text = read(`deploy/systemd/${unit}`).replaceAll('/srv/offzero/current', `${dir}/release`);
      writeFileSync(path.join(dir, unit), text);
    }
    // A template is verified through an instance of it.
    const targets = units.map((unit) => path.join(dir, unit.replace('@.service', '@3001.service')));
    const result = spawnSync(systemdAnalyze, ['verify', '--man=no', ...targets], { encoding: 'utf8' });
    // verify only warns (exit 0) about unknown keys and bad values: any output is a failure.
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    check(
      `systemd-analyze verify accepts ${units.join(', ')}`,
      units.length >= 4 && result.status === 0 && output === '',
      output || `exit ${result.status}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- 5. promtool on the Prometheus files ---

const promtool = findCommand(['promtool'], ['--version']);
if (!promtool) {
  skip('promtool on deploy/prometheus', 'promtool is not installed (Debian: apt-get install prometheus)');
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offzero-prometheus-'));
  try {
    const run = (args, cwd) => {
      const result = spawnSync(promtool, args, { cwd, encoding: 'utf8' });
      return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
    };
    const prometheusDir = path.join(root, 'deploy/prometheus');
    const rules = run(['check', 'rules', 'offzero-alerts.yml'], prometheusDir);
    check('promtool check rules accepts deploy/prometheus/offzero-alerts.yml', rules.ok, rules.output);
    const tests = run(['test', 'rules', 'offzero-alerts.test.yml'], prometheusDir);
    check(
      'the alert rules fire as deploy/prometheus/offzero-alerts.test.yml expects',
      tests.ok,
      tests.output,
    );
    // check config stats the token file: a placeholder in the temporary folder stands in for it.
    writeFileSync(path.join(dir, 'offzero-metrics-token'), 'placeholder-token\n');
    writeFileSync(path.join(dir, 'offzero-alerts.yml'), read('deploy/prometheus/offzero-alerts.yml'));
    writeFileSync(
      path.join(dir, 'prometheus.yml'),
      read('deploy/prometheus/prometheus.yml').replaceAll('/etc/prometheus/', `${dir}/`),
    );
    const config = run(['check', 'config', 'prometheus.yml'], dir);
    check('promtool check config accepts deploy/prometheus/prometheus.yml', config.ok, config.output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`deploy kit: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
