import '../src/rpc/errors';
import { expose } from 'comlink';
import { loadPdfjs, createIngestService } from '../src/ingest';
import { loadBundledCMap } from '../src/ingest/pdf-assets';

expose(createIngestService({ loadPdf: () => loadPdfjs(loadBundledCMap) }));
