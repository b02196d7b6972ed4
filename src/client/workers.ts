/**
 * The page's handle on Aerie's workers. Workers start lazily on first use; a worker that fails to start
 * or crashes is dropped so the next call starts a fresh one. The page imports only the API *types*.
 */
import '../rpc/errors';
import { releaseProxy, transfer, wrap, type Remote } from 'comlink';
import type { EmbedApi } from '../models/embed';
import type { GenerateApi } from '../models/generate';
import type { BuildApi } from '../pipeline/build-service';
import { startEmbedWorker } from '../spawn/embed';
import { startGenerateWorker } from '../spawn/generate';
import { startBuildWorker as spawnBuildWorker } from '../spawn/build';

interface Connection<T> {
  worker: Worker;
  api: Remote<T>;
}

let embedConnection: Connection<EmbedApi> | undefined;
let buildConnection: (Connection<BuildApi> & { generator?: Promise<void> }) | undefined;
let generateConnection: Connection<GenerateApi> | undefined;

function start<T>(worker: Worker, onDead: () => void): Connection<T> {
  worker.addEventListener('error', onDead);
  return { worker, api: wrap<T>(worker) };
}

function stop<T>(connection: Connection<T> | undefined): void {
  if (!connection) return;
  connection.api[releaseProxy]();
  connection.worker.terminate();
}

/** The embedding worker (one loaded model, shared by the page and the build worker). */
export function embedWorker(): Remote<EmbedApi> {
  if (!embedConnection) {
    embedConnection = start<EmbedApi>(startEmbedWorker(), () => {
      stop(embedConnection);
      embedConnection = undefined;
      stop(buildConnection);
      buildConnection = undefined;
    });
  }
  return embedConnection.api;
}

/**
 * Has the embedding worker (and its helpers) forget the texts they tokenised, if it is running (a tree was
 * deleted: none of its passages should stay in a worker's memory). Never starts a worker; never fails.
 */
export function forgetEmbeddedTexts(): void {
  void embedConnection?.api.forget().catch(() => undefined);
}

/**
 * The generate worker: the built-in language model (one loaded model, shared by the page's answers and the
 * build worker's summaries). Started only when someone uses the built-in model.
 */
export function generateWorker(): Remote<GenerateApi> {
  if (!generateConnection) {
    generateConnection = start<GenerateApi>(startGenerateWorker(), () => {
      stop(generateConnection);
      generateConnection = undefined;
      // The build worker's port to it is dead too: the next build connects a fresh one.
      if (buildConnection) buildConnection.generator = undefined;
    });
  }
  return generateConnection.api;
}

type BuildConnection = NonNullable<typeof buildConnection>;
/** The build worker being started (its module loaded, its ports connected): one start however many ask. */
let buildStarting: Promise<BuildConnection> | undefined;

async function startBuildWorker(): Promise<BuildConnection> {
  const connection = start<BuildApi>(spawnBuildWorker(), () => {
    stop(buildConnection);
    buildConnection = undefined;
  });
  const channel = new MessageChannel();
  await embedWorker().connect(transfer(channel.port1, [channel.port1]));
  await connection.api.connectEmbedder(transfer(channel.port2, [channel.port2]));
  buildConnection = connection;
  return connection;
}

/**
 * The build worker, connected to the embedding worker over a private MessageChannel, and to the generate
 * worker too when `options.generator` (a build whose summaries the built-in model writes). Calls made while it
 * starts share that start.
 */
export async function buildWorker(options: { generator?: boolean } = {}): Promise<Remote<BuildApi>> {
  const connection =
    buildConnection ??
    (await (buildStarting ??= startBuildWorker().finally(() => {
      buildStarting = undefined;
    })));
  if (options.generator && !connection.generator) {
    const channel = new MessageChannel();
    connection.generator = (async () => {
      await generateWorker().connect(transfer(channel.port1, [channel.port1]));
      await connection.api.connectGenerator(transfer(channel.port2, [channel.port2]));
    })();
    connection.generator.catch(() => {
      if (connection.generator) connection.generator = undefined;
    });
  }
  await connection.generator;
  return connection.api;
}

/**
 * Ends the build worker at once (cancelling whatever it was doing). The next build starts a new one.
 * Used when a cancel must take effect even in the middle of a long synchronous step.
 */
export function terminateBuildWorker(): void {
  stop(buildConnection);
  buildConnection = undefined;
}

/** Ends every worker (e.g. when the page unloads in tests). */
export function terminateAll(): void {
  terminateBuildWorker();
  stop(generateConnection);
  generateConnection = undefined;
  stop(embedConnection);
  embedConnection = undefined;
}

// A page that goes away ends its workers at once: their build lock is released for the next page (a reload)
// or another tab to see the build as interrupted and resume it, instead of waiting for the browser to do so.
globalThis.addEventListener?.('pagehide', (event) => {
  if (!(event as PageTransitionEvent).persisted) terminateAll();
});
