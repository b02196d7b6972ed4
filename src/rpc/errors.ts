/**
 * Errors that cross a worker boundary keep their `code` and `details`. Comlink sends only
 * `{ name, message, stack }` of a thrown Error; the UI needs the code to tell the user what to do. Import this
 * module (for its effect) in every realm that uses comlink: the page and each worker.
 */
import { transferHandlers, type TransferHandler } from 'comlink';

type Thrown = { value: unknown };
type Serialized = { isError: boolean; value: unknown };

const original = transferHandlers.get('throw') as TransferHandler<Thrown, Serialized> | undefined;

function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return undefined;
  }
}

if (original && !(original as { aerie?: boolean }).aerie) {
  const handler: TransferHandler<Thrown, Serialized> & { aerie: true } = {
    aerie: true,
    canHandle: (value): value is Thrown => original.canHandle(value),
    serialize(thrown) {
      const [serialized, transferables] = original.serialize(thrown);
      const error = thrown.value;
      if (serialized.isError && error instanceof Error) {
        const { code, details } = error as Error & { code?: unknown; details?: unknown };
        const extra: Record<string, unknown> = {};
        if (typeof code === 'string') extra.code = code;
        if (details !== undefined) extra.details = cloneable(details);
        serialized.value = { ...(serialized.value as object), ...extra };
      }
      return [serialized, transferables];
    },
    deserialize: (serialized) => original.deserialize(serialized),
  };
  transferHandlers.set('throw', handler);
}

export {};
