import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Checks of the API's OpenAPI document by an implementation other than the one that wrote it: the
 * OpenAPI Initiative's schemas as the Python packages `openapi-spec-validator` (the document) and
 * `openapi-schema-validator` (answers against the document's response schemas) apply them. The
 * project's machines have both; where they are missing the checks that need them are skipped, and the
 * structural checks below still run.
 */

export interface OpenApiOperation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { securitySchemes?: Record<string, unknown>; schemas?: Record<string, unknown> };
}

/** One real answer of the app: its route (as the document spells paths), status and JSON body. */
export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

const PYTHON = 'python3';

/** Whether the independent validators can run here. */
export const hasOpenApiValidators: boolean =
  spawnSync(PYTHON, ['-c', 'import openapi_spec_validator, openapi_schema_validator'], { stdio: 'ignore' })
    .status === 0;

/** openapi-spec-validator's verdict on the document: null when it is valid, else what it said. */
export function openApiValidatorComplaint(doc: OpenApiDocument): string | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offzero-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const result = spawnSync(PYTHON, ['-m', 'openapi_spec_validator', '--schema', '3.1', file], {
      encoding: 'utf8',
    });
    return result.status === 0 ? null : `${result.stdout}${result.stderr}`.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Each answer is checked against the schema its operation declares for its status and JSON body,
// resolved inside the whole document (a `$ref` beside the document's own keys points at it).
const CHECK_ANSWERS = `
import json, sys
from openapi_schema_validator import OAS31Validator
data = json.load(sys.stdin)
doc = data["document"]
problems = []
escape = lambda part: part.replace("~", "~0").replace("/", "~1")
for answer in data["answers"]:
    method, route, status = answer["method"].lower(), answer["path"], str(answer["status"])
    where = f"{answer['method']} {route} {status}"
    operation = doc["paths"].get(route, {}).get(method)
    if operation is None:
        problems.append(f"{where}: no such operation in the document")
        continue
    media = operation.get("responses", {}).get(status, {}).get("content", {}).get("application/json")
    if media is None or "schema" not in media:
        problems.append(f"{where}: the document declares no JSON schema for this status")
        continue
    pointer = "/".join(["#/paths", escape(route), method, "responses", status, "content", "application~1json", "schema"])
    for error in OAS31Validator({**doc, "$ref": pointer}).iter_errors(answer["body"]):
        problems.append(f"{where}: {error.message} at {'/'.join(map(str, error.absolute_path))}")
print(json.dumps(problems))
`;

/** Where real answers differ from what the document declares for them (empty when none does). */
export function answersNotMatchingDocument(doc: OpenApiDocument, answers: RecordedAnswer[]): string[] {
  const result = spawnSync(PYTHON, ['-c', CHECK_ANSWERS], {
    input: JSON.stringify({ document: doc, answers }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`the answer check failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

/**
 * What the OpenAPI 3.1 rules ask that a JSON Schema check of the document cannot see: every operation
 * named once, every security requirement naming a declared scheme, every `$ref` resolving, every
 * `{parameter}` of a path declared as a required path parameter.
 */
export function openApiStructureProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  const schemes = new Set(Object.keys(doc.components?.securitySchemes ?? {}));
  const operationIds = new Map<string, string>();
  for (const [route, item] of Object.entries(doc.paths)) {
    const templated = [...route.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${route}`;
      if (!operation.operationId) problems.push(`${where}: no operationId`);
      else if (operationIds.has(operation.operationId)) {
        problems.push(
          `${where}: operationId ${operation.operationId} also names ${operationIds.get(operation.operationId)}`,
        );
      } else operationIds.set(operation.operationId, where);
      if (!operation.security) problems.push(`${where}: no security requirement`);
      for (const requirement of operation.security ?? []) {
        for (const name of Object.keys(requirement)) {
          if (!schemes.has(name)) problems.push(`${where}: security names an undeclared scheme ${name}`);
        }
      }
      for (const name of templated) {
        const declared = operation.parameters?.find(
          (parameter) => parameter.in === 'path' && parameter.name === name,
        );
        if (!declared?.required)
          problems.push(`${where}: path parameter ${name} is not declared as required`);
      }
    }
  }
  const visit = (value: unknown, at: string): void => {
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${at}/${index}`));
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key === '$ref' && typeof item === 'string' && resolvePointer(doc, item) === undefined) {
          problems.push(`${at}: $ref ${item} does not resolve`);
        }
        visit(item, `${at}/${key}`);
      }
    }
  };
  visit(doc, '#');
  return problems;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!node || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
