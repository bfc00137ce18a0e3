// The shared prerender helpers the build script needs, compiled with the page renderer.
export {
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  PRERENDER_VARIANTS,
  prerenderConfig,
} from '@offzero/shared/web/prerender';
