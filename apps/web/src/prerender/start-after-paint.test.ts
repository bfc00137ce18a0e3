import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// public/start-after-paint.js, run as the browser runs it: a plain script whose element names the chunks.
const SOURCE = readFileSync(path.join(import.meta.dirname, '../../public/start-after-paint.js'), 'utf8');
const CHUNKS = ['/assets/index-a1.js', '/assets/react-b2.js', '/assets/terms-page-c3.js'];

let frames: FrameRequestCallback[] = [];

function runStartScript({ scripts = CHUNKS.join(' '), visibility = 'visible' } = {}) {
  const element = document.createElement('script');
  if (scripts) element.setAttribute('data-scripts', scripts);
  Object.defineProperty(document, 'currentScript', { configurable: true, get: () => element });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the public script's own source, as the page does
  new Function(SOURCE)();
}

/** What the script has added to the head: preload links and module scripts, in order. */
function added() {
  return [...document.head.querySelectorAll('link[rel="modulepreload"], script[type="module"]')].map(
    (node) => ({
      [node instanceof HTMLLinkElement ? 'preload' : 'module']: node.getAttribute(
        node instanceof HTMLLinkElement ? 'href' : 'src',
      ),
      priority: node.getAttribute('fetchpriority'),
      crossOrigin: node.getAttribute('crossorigin'),
    }),
  );
}

/** The browser paints the next frame, then runs the tasks queued behind it. */
async function paintFrame() {
  const queued = frames;
  frames = [];
  for (const callback of queued) callback(performance.now());
  await new Promise((resolve) => setTimeout(resolve, 0));
}

beforeEach(() => {
  document.head.replaceChildren();
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
});

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document, 'currentScript');
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('start-after-paint', () => {
  it('requests no script until the page has been painted, then every chunk at once, at low priority, with the entry run last', async () => {
    runStartScript();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(added()).toEqual([]);
    await paintFrame();
    expect(added()).toEqual([]);

    // The next frame begins once the painted page is on screen.
    await paintFrame();
    expect(added()).toEqual([
      { preload: '/assets/react-b2.js', priority: 'low', crossOrigin: '' },
      { preload: '/assets/terms-page-c3.js', priority: 'low', crossOrigin: '' },
      { module: '/assets/index-a1.js', priority: 'low', crossOrigin: '' },
    ]);
  });

  it('starts the scripts once only, whatever happens to the tab afterwards', async () => {
    runStartScript();
    await paintFrame();
    await paintFrame();
    document.dispatchEvent(new Event('visibilitychange'));
    await paintFrame();
    expect(added().filter((node) => node.module)).toHaveLength(1);
    expect(added()).toHaveLength(CHUNKS.length);
  });

  it('starts at once in a hidden tab, which paints no frame', () => {
    runStartScript({ visibility: 'hidden' });
    expect(added().map((node) => node.preload ?? node.module)).toEqual([...CHUNKS.slice(1), CHUNKS[0]]);
    expect(frames).toHaveLength(0);
  });

  it('starts when the tab is hidden before its first paint', () => {
    runStartScript();
    expect(added()).toEqual([]);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(added()).toHaveLength(CHUNKS.length);
  });

  it('does nothing on a page that names no scripts', async () => {
    runStartScript({ scripts: '' });
    await paintFrame();
    await paintFrame();
    expect(added()).toEqual([]);
    expect(frames).toHaveLength(0);
  });
});
