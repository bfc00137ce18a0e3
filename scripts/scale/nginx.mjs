// nginx in front of the two web processes, with the kit's rules (deploy/nginx/offzero.conf).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ports, root, scratch, spawnChild, waitFor } from './harness.mjs';
import { base, get } from './http.mjs';

const kitConf = path.join(root, 'deploy/nginx/offzero.conf');
const NGINX = '/usr/sbin/nginx';

/** nginx from Debian's package, installed only when missing. */
export function ensureNginx() {
  if (existsSync(NGINX)) return;
  console.log('nginx is missing: apt-get install -y nginx');
  const apt = (args) =>
    spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  if (apt(['install', '-y', 'nginx']).status !== 0) {
    apt(['update']);
    apt(['install', '-y', 'nginx']);
  }
  if (!existsSync(NGINX)) throw new Error('nginx could not be installed (apt-get install -y nginx)');
}

/** The kit's http-level rules and its /api locations, on a local port over the three processes. */
function nginxConfig() {
  const kit = readFileSync(kitConf, 'utf8');
  const grab = (pattern, what) => {
    const match = kit.match(pattern);
    if (!match) throw new Error(`deploy/nginx/offzero.conf: ${what} not found`);
    return match[0];
  };
  const upstreamBody = grab(/upstream offzero_web \{[\s\S]*?\n\}/, 'the upstream block');
  // Our web processes replace the kit's addresses; its balancing and keep-alive lines stay.
  const servers = ['web1', 'web2']
    .map((name) => `    server 127.0.0.1:${ports[name]} max_fails=3 fail_timeout=10s;`)
    .join('\n');
  const upstream = upstreamBody
    .replace(/^\s*server [^\n]*\n/gm, '')
    .replace('least_conn;', `least_conn;\n${servers}`);
  const map = grab(/map \$http_upgrade \$connection_upgrade \{[\s\S]*?\n\}/, 'the upgrade map');
  const logFormat = grab(/log_format offzero [^;]*;/, 'the log format');
  // The TLS server block, from client_max_body_size to its end, minus what needs root or certificates.
  const server = grab(/\n {4}client_max_body_size[\s\S]*\n\}\s*$/, 'the https server block')
    .replace(/\n\}\s*$/, '')
    .replace(/\n {4}location \/assets\/ \{[\s\S]*?\n {4}\}/, '')
    .replace(/\n {4}location = \/metrics \{[\s\S]*?\n {4}\}/, '');
  for (const rule of [
    'proxy_next_upstream error timeout;',
    'location = /api/realtime',
    '$connection_upgrade',
  ])
    if (!server.includes(rule) && !map.includes(rule)) throw new Error(`the kit lost "${rule}"`);
  return `daemon off;
master_process off;
worker_processes 1;
pid ${scratch.tmp}/nginx/nginx.pid;
error_log ${scratch.tmp}/nginx/error.log warn;
events { worker_connections 256; }
http {
    client_body_temp_path ${scratch.tmp}/nginx/body;
    proxy_temp_path ${scratch.tmp}/nginx/proxy;
    fastcgi_temp_path ${scratch.tmp}/nginx/fastcgi;
    uwsgi_temp_path ${scratch.tmp}/nginx/uwsgi;
    scgi_temp_path ${scratch.tmp}/nginx/scgi;
    default_type application/octet-stream;
${upstream}
${map}
${logFormat}
server {
    listen 127.0.0.1:${ports.nginx};
    server_name 127.0.0.1;
    access_log ${scratch.tmp}/nginx/access.log offzero;
${server}
}
}
`;
}

/**
 * Waits until nginx sends requests to `name` again. nginx only learns of a dead process passively: after
 * max_fails refused tries it leaves the process out for fail_timeout (10 s), even once it is back. Stopping
 * the other web process inside that window leaves no live upstream (503 for every call), so a rolling
 * restart must wait for this, not only for the process's own readiness.
 */
export async function waitRoutedTo(name, ms = 30_000) {
  const log = path.join(scratch.tmp, 'nginx/access.log');
  const from = existsSync(log) ? readFileSync(log, 'utf8').length : 0;
  const routed = await waitFor(
    ms,
    async () => {
      await get('/api/app-config');
      return readFileSync(log, 'utf8').slice(from).includes(`upstream=127.0.0.1:${ports[name]} ust=200`);
    },
    100,
  );
  if (!routed) throw new Error(`nginx did not route to ${name} again within ${ms / 1000} s`);
}

/** Starts nginx over the web processes and waits until it serves the app. */
export async function startNginx() {
  const { tmp } = scratch;
  mkdirSync(path.join(tmp, 'nginx'));
  writeFileSync(path.join(tmp, 'nginx/nginx.conf'), nginxConfig());
  const nginx = spawnChild(
    NGINX,
    ['-p', path.join(tmp, 'nginx'), '-c', path.join(tmp, 'nginx/nginx.conf')],
    { PATH: process.env.PATH },
    'nginx',
  );
  const nginxUp = await waitFor(
    10_000,
    async () => (await fetch(`${base()}/api/health/ready`)).status === 200,
    100,
  );
  if (!nginxUp)
    throw new Error(
      `nginx did not answer:\n${nginx.output}${readFileSync(path.join(tmp, 'nginx/error.log'), 'utf8')}`,
    );
}
