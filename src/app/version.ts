/** Aerie's version as Settings shows it: package.json's, and the build's name when one was given. */
import { version } from '../../package.json';

/** `VITE_AERIE_BUILD` (set at `vite build`) names a build, e.g. a deployment; absent, the version alone. */
const BUILD = import.meta.env.VITE_AERIE_BUILD as string | undefined;

/** "0.1.0", or "0.1.0 (build 2026-11-28)". */
export const APP_VERSION = BUILD ? `${version} (build ${BUILD})` : version;
