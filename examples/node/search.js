#!/usr/bin/env node
// Searches paperdb, follows the next page and looks papers up, with
// @grpc/grpc-js and the .proto files of ../../proto loaded at run time by
// @grpc/proto-loader.
//
//   node search.js ADDR QUERY
//
// Prints the same lines as ../python/search.py, so the two can be compared.
// Exit status: 0 on success, 1 if a call failed unexpectedly, 2 on bad usage.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const DEADLINE_MS = 5000; // for every call
const PAGE_SIZE = 3;
const MISSING = 'papers/iclr2024-0000000000000000';

// keepCase: false gives lowerCamelCase field names (pageSize, startUtf16),
// as in protobuf's JSON mapping; int64 fields (totalSize) become strings.
// google/protobuf/timestamp.proto comes with protobufjs.
const definition = protoLoader.loadSync('paperdb/v1/query_service.proto', {
  includeDirs: [path.join(__dirname, '..', '..', 'proto')],
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
});
const { QueryService } = grpc.loadPackageDefinition(definition).paperdb.v1;

// Calls a unary method with a deadline and returns a promise of its response.
function call(client, method, request) {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: Date.now() + DEADLINE_MS },
      (error, response) => (error ? reject(error) : resolve(response)));
  });
}

// The snippet's text with each highlight in [brackets]. JavaScript strings
// index by UTF-16 code units, so the spans' UTF-16 offsets slice it.
function marked(snippet) {
  const { text } = snippet;
  let out = '';
  let position = 0;
  for (const span of snippet.highlights) {
    out += text.slice(position, span.startUtf16) + '[' +
      text.slice(span.startUtf16, span.endUtf16) + ']';
    position = span.endUtf16;
  }
  out += text.slice(position);
  return (snippet.truncatedStart ? '…' : '') + out + (snippet.truncatedEnd ? '…' : '');
}

const describe = (paper) =>
  `${paper.name}: ${paper.venue} ${paper.year}, ${paper.wordCount} words`;

async function run(client, query) {
  const hits = [];
  let token = '';
  for (const page of [1, 2]) {
    const response = await call(client, 'SearchPapers',
      { query, pageSize: PAGE_SIZE, pageToken: token });
    if (page === 1) {
      console.log(`SearchPapers "${query}": total_size ${response.totalSize}, ${response.matchMode}`);
    }
    token = response.nextPageToken;
    console.log(`page ${page}: ${response.results.length} results, ` +
      (token ? 'next_page_token set' : 'last page'));
    for (const result of response.results) {
      hits.push(result.paper);
      const score = result.score ? ` score ${result.score.toFixed(4)}` : '';
      console.log(`  #${hits.length} ${result.paper.id} ${result.paper.sources[0].fileName}${score}`);
      console.log(`     ${marked(result.snippet)}`);
    }
    if (!token) break;
  }

  if (hits.length > 0) {
    console.log('GetPaper ' + describe(await call(client, 'GetPaper', { name: hits[0].name })));
    const names = hits.slice(0, 2).map((paper) => paper.name);
    const batch = await call(client, 'BatchGetPapers', { names });
    console.log(`BatchGetPapers ${names.length} names:`);
    for (const paper of batch.papers) console.log('  ' + describe(paper));
  }

  try {
    await call(client, 'GetPaper', { name: MISSING });
    console.log(`GetPaper ${MISSING}: found, expected NOT_FOUND`);
    return 1;
  } catch (error) {
    if (error.code !== grpc.status.NOT_FOUND) throw error;
    console.log(`GetPaper ${MISSING}: ${grpc.status[error.code]} (${error.details})`);
  }
  return 0;
}

async function main() {
  if (process.argv.length !== 4) {
    console.error('usage: node search.js ADDR QUERY');
    return 2;
  }
  const client = new QueryService(process.argv[2], grpc.credentials.createInsecure());
  try {
    return await run(client, process.argv[3]);
  } catch (error) {
    if (error.code === undefined) throw error;
    console.error(`search.js: ${grpc.status[error.code]}: ${error.details}`);
    return 1;
  } finally {
    client.close();
  }
}

main().then((code) => { process.exitCode = code; });
