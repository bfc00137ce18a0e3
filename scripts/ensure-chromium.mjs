#!/usr/bin/env node
// The browser tests drive Debian's Chromium; browser downloads never work on these machines.
// Installs it with apt-get when running as root, otherwise stops and says how.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let hasAptGet;
  try {
    execFileSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' });
    hasAptGet = true;
  } catch {
    hasAptGet = false;
  }
  if (!isRoot || !hasAptGet) {
    console.error(
      `Chromium is needed for the browser tests but ${CHROMIUM} is missing.\n` +
        'Install it with:  sudo apt-get update && sudo apt-get install -y chromium',
    );
    process.exit(1);
  }
  console.log('Installing Debian chromium for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env });
  if (!existsSync(CHROMIUM)) {
    console.error(`apt-get finished but ${CHROMIUM} is still missing.`);
    process.exit(1);
  }
}
