/**
 * `npm run bench [section …] [-- --allow-missing-references]`: performance figures, each printed beside a
 * reference measured in the same run (scikit-learn, native ONNX Runtime, the paper's Table 10, spherical
 * k-means) with the ratio. Sections: gmm, cluster, shape, embed, storage, llm, build, query, view, eval (the gold
 * sets' evaluation tables), labels (how well topic labels tell siblings apart, beside plain c-TF-IDF),
 * retrieval (evidence recall per mode and search), rerank, keywords, conversation (long conversations in the app),
 * ask-during-build (asking a 14k-node tree while another tab builds), citations (click → highlighted PDF page,
 * highlight precision, the kept PDF's space). Default: all.
 * Anything that could not be measured is printed as NOT MEASURED, summarised at the end, and fails the run
 * unless allowed (bench/gaps.ts); a section that throws fails the run, after the other sections ran
 * (bench/sections.ts). See bench/README.md.
 */
import { runSections, type Section } from './sections';

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
  conversation: async () => (await import('./conversation.bench')).benchConversation,
  'ask-during-build': async () => (await import('./ask-during-build.bench')).benchAskDuringBuild,
  eval: async () => (await import('./eval.bench')).benchEval,
  labels: async () => (await import('./labels.bench')).benchLabels,
  citations: async () => (await import('./citations.bench')).benchCitations,
};

process.exitCode = await runSections(SECTIONS, process.argv.slice(2), process.env);
