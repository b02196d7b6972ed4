/**
 * `npm run bench [section …]`: performance figures, each printed beside a reference measured in the same run
 * (scikit-learn, native ONNX Runtime, the paper's Table 10, spherical k-means) with the ratio. Sections: gmm,
 * cluster, shape, embed, storage, llm, build, query, view, eval (the gold sets' evaluation tables), retrieval, rerank,
 * keywords. Default: all.
 */
import { printRows, type BenchRow } from './report';

type Section = () => Promise<BenchRow[]>;

const SECTIONS: Record<string, () => Promise<Section>> = {
  gmm: async () => (await import('./gmm.bench')).benchGmm,
  cluster: async () => (await import('./cluster.bench')).benchCluster,
  shape: async () => (await import('./shape.bench')).benchShape,
  embed: async () => (await import('./embed.bench')).benchEmbed,
  storage: async () => (await import('./storage.bench')).benchStorage,
  llm: async () => (await import('./llm.bench')).benchLlm,
  build: async () => (await import('./build.bench')).benchBuild,
  query: async () => (await import('./query.bench')).benchQuery,
  retrieval: async () => (await import('./retrieval.bench')).benchRetrieval,
  rerank: async () => (await import('./rerank.bench')).benchRerank,
  keywords: async () => (await import('./keywords.bench')).benchKeywords,
  view: async () => (await import('./view.bench')).benchView,
  eval: async () => (await import('./eval.bench')).benchEval,
};

async function main(): Promise<void> {
  const requested = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = requested.length ? requested : Object.keys(SECTIONS);
  for (const name of names) {
    const load = SECTIONS[name];
    if (!load) {
      console.error(`Unknown bench section "${name}". Known: ${Object.keys(SECTIONS).join(', ')}.`);
      process.exitCode = 2;
      return;
    }
    console.log(`\n== ${name} ==`);
    const started = Date.now();
    printRows(await (await load())());
    console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

await main();
