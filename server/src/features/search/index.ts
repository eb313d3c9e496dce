// What other modules use of search: its routes (the app), its background job, and the queueing of a new version's
// text for document search (uploads). Search writes only the text of files (file_texts) and its re-index runs.
export { searchRoutes } from './search.routes.js';
export { closeTextExtractor, defineDocumentTextJobs, queueTextReading, readPendingTexts } from './document-text.jobs.js';
// The admin command's re-index.
export { reindexFromCli } from './search-settings.service.js';
