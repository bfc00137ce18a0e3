import { spawn } from 'node:child_process';
import fs from 'node:fs';
import puppeteer from 'puppeteer-core';
const port = 3391;
const dataDir = fs.mkdtempSync('/tmp/webprof/data-');
const server = spawn(process.execPath, ['apps/server/dist/main.js'], { env: { ...process.env, APP_MODE: 'demo', HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0' }, stdio: 'inherit' });
for (let i = 0; i < 200; i++) { try { if ((await fetch(`http://127.0.0.1:${port}/api/health/ready`)).ok) break; } catch {} await new Promise(r => setTimeout(r, 250)); }
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu'] });
for (const p of (process.env.PAGES ?? '/').split(',')) {
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.evaluateOnNewDocument(() => { (window as any).__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) (window as any).__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true }); });
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start');
  await page.goto(`http://127.0.0.1:${port}${p}`, { waitUntil: 'networkidle0' });
  await new Promise(r => setTimeout(r, 2000));
  const { profile } = await cdp.send('Profiler.stop');
  const lt = await page.evaluate(() => ({ lt: (window as any).__lt, mark: performance.getEntriesByName('offzero:interactive').map(e => Math.round(e.startTime)) }));
  console.log(p, JSON.stringify(lt));
  fs.writeFileSync(`/tmp/webprof/${p.replace(/\W/g, '_') || 'home'}-${process.env.TAG}.cpuprofile`, JSON.stringify(profile));
  // self time per function
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const self = new Map<string, number>();
  const dts = profile.timeDeltas;
  profile.samples.forEach((id: number, i: number) => { const n: any = byId.get(id); const f = n.callFrame; const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*\//, '')}:${f.lineNumber}`; self.set(key, (self.get(key) ?? 0) + (dts[i + 1] ?? 0) / 1000); });
  console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(1).padStart(7)} ${k}`).join('\n'));
  await page.close();
}
await browser.close(); server.kill();
