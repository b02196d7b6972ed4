import '../src/rpc/errors';
import { expose } from 'comlink';
import { loadBundledCMap } from '../src/ingest/pdf-assets';
import { loadPdfjs } from '../src/ingest/pdfjs-runtime';
import { createIngestService } from '../src/ingest/service';

expose(createIngestService({ loadPdf: () => loadPdfjs(loadBundledCMap) }));
