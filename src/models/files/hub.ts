/** Where hub models come from and where their files are kept (the names transformers.js uses). */

/** Where transformers.js downloads hub models from (its `env.remoteHost`; the app does not change it). */
export const HUB_HOST = 'https://huggingface.co/';
/** The Cache Storage name transformers.js keeps downloaded model files under (its `env.cacheKey`). */
export const MODEL_CACHE_NAME = 'transformers-cache';
