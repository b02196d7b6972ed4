/**
 * Starts the FAKE LLM server of the tests (tests/support/llm-server.ts) as its own process, for manual runs
 * and browser tests:
 *
 *   npx tsx scripts/llm-server.ts --port 8787 [--host 127.0.0.1] [--api-key KEY] [--models a,b]
 *     [--context-limit WORDS] [--latency MS] [--chunk-delay MS] [--cors ORIGIN | --no-cors] [--crlf]
 *
 * Prints the base URL (OpenAI endpoints use `<url>/v1`, Anthropic endpoints `<url>`). Script it over HTTP:
 * POST /__fake__/enqueue [behaviours], POST /__fake__/configure {options}, POST /__fake__/reset,
 * GET /__fake__/requests.
 */
import { FakeLlmServer, type FakeLlmServerOptions } from '../tests/support/llm-server';

const DEFAULT_PORT = 8787;

function parseArgs(argv: string[]): { port: number; host: string; options: FakeLlmServerOptions } {
  const options: FakeLlmServerOptions = {};
  let port = DEFAULT_PORT;
  let host = '127.0.0.1';
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const number = () => {
      const n = Number(value());
      if (!Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a non-negative number`);
      return n;
    };
    switch (flag) {
      case '--port':
        port = number();
        break;
      case '--host':
        host = value();
        break;
      case '--api-key':
        options.apiKey = value();
        break;
      case '--models':
        options.models = value()
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean);
        break;
      case '--context-limit':
        options.contextLimit = number();
        break;
      case '--latency':
        options.latencyMs = number();
        break;
      case '--chunk-delay':
        options.chunkDelayMs = number();
        break;
      case '--cors':
        options.cors = value();
        break;
      case '--no-cors':
        options.cors = false;
        break;
      case '--crlf':
        options.lineEnding = '\r\n';
        break;
      case '--help':
        console.log(
          'Usage: npx tsx scripts/llm-server.ts --port 8787 [options]; see the comment at the top of the file.',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${flag} (try --help)`);
    }
  }
  return { port, host, options };
}

async function main(): Promise<void> {
  const { port, host, options } = parseArgs(process.argv.slice(2));
  const server = new FakeLlmServer(options);
  const url = await server.start(port, host);
  console.log(`Fake LLM server (for tests) listening at ${url}`);
  console.log(`  OpenAI-compatible base URL: ${server.openaiBaseUrl}`);
  console.log(`  Anthropic base URL:         ${server.anthropicBaseUrl}`);
  console.log(`  models: ${(options.models ?? ['fake-model']).join(', ')}`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
