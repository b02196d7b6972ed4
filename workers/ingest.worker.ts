import '../src/rpc/errors';
import { expose } from 'comlink';
import { loadBundledCMap, loadPdfjs, createIngestService } from '../src/ingest';

expose(createIngestService({ loadPdf: () => loadPdfjs(loadBundledCMap) }));
