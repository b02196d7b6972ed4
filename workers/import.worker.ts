import '../src/rpc/errors';
import { expose } from 'comlink';
import { loadBundledCMap } from '../src/ingest/pdf-assets';
import { loadPdfjs } from '../src/ingest/pdfjs-runtime';
import { createImportService } from '../src/storage/import-service';

expose(createImportService({ loadPdf: () => loadPdfjs(loadBundledCMap) }));
