import '../src/rpc/errors';
import { expose } from 'comlink';
import { createImportService } from '../src/storage';

expose(createImportService());
