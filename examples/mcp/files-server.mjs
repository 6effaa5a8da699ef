#!/usr/bin/env node
/**
 * An example MCP stdio server for govflow (README "Give an agent tools"): read-only access to the
 * files under one folder, DATA_DIR (relative to the server's working folder, which govflow sets to
 * the root). It needs the MCP SDK, which govflow does not install: `npm i @modelcontextprotocol/sdk`.
 *
 *   mcp:
 *     servers:
 *       files: { command: node, args: [examples/mcp/files-server.mjs], env: { DATA_DIR: data } }
 *
 * Tools (an agent names them mcp:files/list_files, mcp:files/read_file):
 *   list_files{path?}  the entries of a folder ("." by default) as JSON: [{name, type, bytes?}]
 *   read_file{path}    a file's text (UTF-8), at most MAX_FILE_BYTES
 * Paths are relative to DATA_DIR. Absolute paths, `..` and symlinks that lead outside it are
 * refused: the call gets an error result, which the model reads, and nothing is read.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const MAX_FILE_BYTES = 1024 * 1024;

if (!process.env.DATA_DIR) {
  process.stderr.write('files-server: set DATA_DIR to the folder whose files it may list and read (mcp.servers.<name>.env)\n');
  process.exit(2);
}
let dataDir;
try {
  // Compared against real paths below, so DATA_DIR itself may be a symlink.
  dataDir = realpathSync(path.resolve(process.env.DATA_DIR));
} catch (error) {
  process.stderr.write(`files-server: DATA_DIR ${process.env.DATA_DIR} cannot be used: ${error.message}\n`);
  process.exit(2);
}

class Refusal extends Error {}

const isInside = (candidate) => candidate === dataDir || candidate.startsWith(dataDir + path.sep);

/** The real path of `relative` inside DATA_DIR; checked before and after symlinks resolve. */
function resolveInside(relative) {
  if (path.isAbsolute(relative)) throw new Refusal(`${relative}: absolute paths are refused; name a path relative to DATA_DIR`);
  const lexical = path.resolve(dataDir, relative);
  if (!isInside(lexical)) throw new Refusal(`${relative}: outside DATA_DIR, refused`);
  let real;
  try {
    real = realpathSync(lexical);
  } catch {
    throw new Refusal(`${relative}: no such file or folder`);
  }
  if (!isInside(real)) throw new Refusal(`${relative}: a symlink that leads outside DATA_DIR, refused`);
  return real;
}

const answer = (text) => ({ content: [{ type: 'text', text }] });
const refused = (error) => {
  if (!(error instanceof Refusal)) throw error;
  return { content: [{ type: 'text', text: error.message }], isError: true };
};

function listFiles({ path: relative = '.' }) {
  try {
    const folder = resolveInside(relative);
    if (!statSync(folder).isDirectory()) throw new Refusal(`${relative}: not a folder`);
    const entries = readdirSync(folder, { withFileTypes: true })
      .map((entry) => {
        if (entry.isDirectory()) return { name: entry.name, type: 'folder' };
        if (entry.isFile()) return { name: entry.name, type: 'file', bytes: statSync(path.join(folder, entry.name)).size };
        return { name: entry.name, type: entry.isSymbolicLink() ? 'symlink' : 'other' };
      })
      .sort((left, right) => left.name.localeCompare(right.name));
    return answer(JSON.stringify(entries));
  } catch (error) {
    return refused(error);
  }
}

function readFile({ path: relative }) {
  try {
    const file = resolveInside(relative);
    const stats = statSync(file);
    if (!stats.isFile()) throw new Refusal(`${relative}: not a file`);
    if (stats.size > MAX_FILE_BYTES) throw new Refusal(`${relative}: ${stats.size} bytes, more than the ${MAX_FILE_BYTES} this server reads`);
    return answer(readFileSync(file, 'utf8'));
  } catch (error) {
    return refused(error);
  }
}

const server = new McpServer({ name: 'govflow-example-files', version: '1.0.0' });
server.registerTool(
  'list_files',
  { description: 'Lists a folder under DATA_DIR (default ".") as JSON: [{name, type, bytes?}].', inputSchema: { path: z.string().optional() } },
  async (input) => listFiles(input),
);
server.registerTool(
  'read_file',
  { description: 'Reads a UTF-8 text file under DATA_DIR (path relative to it).', inputSchema: { path: z.string() } },
  async (input) => readFile(input),
);
await server.connect(new StdioServerTransport());
