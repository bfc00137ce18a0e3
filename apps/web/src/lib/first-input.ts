const FIRST_INPUT_EVENTS = ['pointerdown', 'keydown', 'input'] as const;

/**
 * Calls `start` once, when the visitor first touches, clicks or types anywhere on the page (not on a
 * focus, which an autofocused field makes by itself). For code the page will need only after the
 * visitor acts, such as the step after a form: it loads while they fill the form, not during the page's
 * own start-up. Returns a function that stops waiting.
 */
export function onFirstInput(start: () => void): () => void {
  const stop = () => {
    for (const type of FIRST_INPUT_EVENTS) document.removeEventListener(type, handle, true);
  };
  const handle = () => {
    stop();
    start();
  };
  for (const type of FIRST_INPUT_EVENTS) document.addEventListener(type, handle, true);
  return stop;
}
