// The OpenAPI 3.1 document, generated from the route table: the rows are the single source.
import { z } from 'zod';
import { errorStatus } from '../../platform/api/errors.ts';
import type { RouteRow } from '../routes/table.ts';
import { errorBody, pageMeta } from '../routes/common.ts';
import { KNOWN_SCOPES, SCOPE_DESCRIPTIONS } from '../../platform/domain/scopes.ts';
import { AUTHORIZATION_PARAMS } from '../../subgraphs/developer/oauth/authorization.ts';
import { bodyExample, parameterExamples } from './demo-examples.ts';

const STATUS_TEXT: Record<number, string> = {
  304: 'Not Modified: the ETag in If-None-Match is current.',
  400: 'Invalid request (validation_failed).',
  401: 'Missing, unknown, expired or revoked access token (invalid_token).',
  403: 'Not permitted: missing scope, installation or entitlement (forbidden).',
  404: 'Not found (not_found).',
  405: 'Method not allowed on this path.',
  409: 'Conflict with the current state (conflict).',
  412: 'If-Match does not match the current revision (precondition_failed).',
  413: 'Request body too large.',
  415: 'Unsupported request content type.',
  428: 'A required If-Match header is missing (precondition_required).',
  429: 'Too many requests (rate_limited); see Retry-After.',
  500: 'Internal error (internal).',
  503: 'Service unavailable (service_unavailable; temporarily_unavailable on the OAuth endpoints): the database or a subgraph cannot be reached, or a metered read ran out of time. Nothing was charged to a rate limit; retry after Retry-After seconds.',
};

type JsonSchema = Record<string, unknown>;

/** The IETF rate-limit fields every limited answer carries (docs/errors.md#rate-limits). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { schema: { type: 'string' }, description: 'The quota that applies, e.g. "token";q=6000;w=60 (requests per window of seconds).' },
  RateLimit: { schema: { type: 'string' }, description: 'What is left of it, e.g. "token";r=5990;t=42 (remaining, seconds until the window resets).' },
};
const RETRY_AFTER = { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until a request may succeed again.' } };

/** GET and POST /oauth/authorize: browser pages, not API operations, documented by hand. */
function authorizePaths() {
  const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
  const unavailable = { ...html('An error page: the database cannot be reached; try again after Retry-After seconds.'), headers: RETRY_AFTER };
  const redirect = (description: string) => ({ description, headers: { Location: { schema: { type: 'string' }, description: 'The redirect URI with code, state and iss, or with error, error_description, state and iss.' } } });
  const params = AUTHORIZATION_PARAMS.map((name) => ({
    name,
    in: 'query',
    required: ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method'].includes(name),
    schema: name === 'code_challenge_method' ? { type: 'string', enum: ['S256'] } : name === 'response_type' ? { type: 'string', enum: ['code'] } : { type: 'string' },
  }));
  return {
    get: {
      operationId: 'authorize',
      tags: ['OAuth'],
      summary: 'Authorization endpoint (browser)',
      description:
        'RFC 6749 §4.1 with PKCE required (S256). Shows the sign-in page, then the consent page naming the application and each scope; the decision redirects to the registered redirect URI. An unknown client or a redirect URI not registered exactly answers an error page and never redirects; other errors redirect with error, state and iss. See docs/authentication.md.',
      parameters: params,
      responses: {
        200: html('The sign-in or the consent page.'),
        302: redirect('An error for the client, at its redirect URI.'),
        400: html('An error page: nothing can be sent to the client.'),
        503: unavailable,
      },
      security: [],
    },
    post: {
      operationId: 'authorizeForm',
      tags: ['OAuth'],
      summary: 'The sign-in and consent forms',
      description: 'Posted by the pages: the authorization request as hidden fields, the csrf field (an HMAC bound to the browser\'s session: the one its page was shown with; another session\'s is 400) and action sign_in (with username and password), approve, deny or sign_out.',
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } },
      responses: {
        200: html('The page again (a sign-in that failed shows why).'),
        303: redirect('To the consent page after signing in, or the decision to the client.'),
        400: html('An error page.'),
        401: html('The sign-in page: the username and password do not match.'),
        429: { ...html('The sign-in page: too many failed sign-ins from this address (with the token endpoint\'s and the GraphQL fields\' failed client authentications).'), headers: { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER } },
        503: unavailable,
      },
      security: [],
    },
  };
}

/** GET /, /api/v2 and /api/v1: the index of the platform, a page for browsers and JSON for other clients. */
function landingPaths() {
  const url = { type: 'string' };
  const index = {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: {
      data: {
        type: 'object',
        required: ['name', 'links', 'overlays', 'guides', 'demoWorld'],
        properties: {
          name: { type: 'string' },
          links: { type: 'object', additionalProperties: { oneOf: [url, { type: 'object', additionalProperties: url }] } },
          overlays: { type: 'object', properties: { urls: { type: 'array', items: url }, token: { type: 'string' } } },
          guides: { type: 'array', items: { type: 'string' }, description: 'Paths of the Markdown guides in the repository.' },
          demoWorld: {
            description: "The demo world's published credentials while the database holds the demo world; null otherwise.",
            oneOf: [{ type: 'null' }, { type: 'object' }],
          },
        },
      },
    },
  };
  const get = (operationId: string, summary: string) => ({
    get: {
      operationId,
      tags: ['Index'],
      summary,
      description:
        'Where to go next: the API reference, the OpenAPI document, GraphiQL, the realtime gateway, OAuth, the overlays and the guides, with the demo credentials while the database holds the demo world. A browser (Accept: text/html) gets the same as a page.',
      responses: {
        200: {
          description: 'The index: JSON, or the page for Accept: text/html.',
          content: { 'application/json': { schema: index }, 'text/html': { schema: { type: 'string' } } },
        },
      },
      security: [],
    },
  });
  return {
    '/': get('index', 'The index of the platform'),
    '/api/v2': get('indexV2', 'The index of the platform (the REST v2 base)'),
    '/api/v1': get('indexV1', 'The index of the platform (the v1 base)'),
  };
}

/** Converts a zod schema, collecting named schemas (meta id) into components. */
function toSchema(schema: z.ZodType, components: Record<string, JsonSchema>, io: 'input' | 'output'): JsonSchema {
  const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  // Named schemas land in $defs; in OpenAPI they belong in components.
  const json = JSON.parse(JSON.stringify(raw).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
    $schema?: string;
  };
  for (const [name, def] of Object.entries(json.$defs ?? {})) components[name] = def;
  delete json.$defs;
  delete json.$schema;
  const id = (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;
  if (id) {
    // A named root comes back either inline or as a $ref to its own $defs entry (moved above).
    if (json.$ref !== `#/components/schemas/${id}`) {
      const { id: _ignored, ...definition } = json as JsonSchema & { id?: string };
      components[id] = definition;
    }
    return { $ref: `#/components/schemas/${id}` };
  }
  return json;
}

function parameters(row: RouteRow, components: Record<string, JsonSchema>) {
  const list: Record<string, unknown>[] = [];
  const examples: Record<string, Record<string, string>> = parameterExamples(row);
  const add = (location: 'path' | 'query' | 'header', shape: z.ZodObject | undefined) => {
    if (!shape) return;
    for (const [name, field] of Object.entries(shape.shape as Record<string, z.ZodType>)) {
      if (location === 'header' && name === 'authorization') continue;
      const schema = toSchema(field, components, 'input');
      const example = examples[location]?.[name];
      list.push({
        name,
        in: location,
        required: location === 'path' || !field.safeParse(undefined).success || (location === 'header' && (row.input.requiredHeaders ?? []).includes(name)),
        description: field.description,
        schema,
        ...(example !== undefined ? { example } : {}),
      });
    }
  };
  add('path', row.input.path);
  add('query', row.input.query);
  add('header', row.input.headers);
  return list;
}

export function buildOpenApiDocument(rows: RouteRow[], serverUrl = '/') {
  const components: Record<string, JsonSchema> = {};
  const errorRef = toSchema(errorBody, components, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  const headerDocs = (row: RouteRow) => ({
    'x-request-id': { schema: { type: 'string' }, description: 'The request id.' },
    ...RATE_LIMIT_HEADERS,
    ...(row.documentedHeaders ?? {}),
  });
  for (const row of rows) {
    const success = toSchema(row.success.schema, components, 'output');
    const body =
      row.format === 'raw'
        ? success
        : row.format === 'list'
          ? { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: success }, meta: toSchema(pageMeta, components, 'output') }, additionalProperties: false }
          : { type: 'object', required: ['data'], properties: { data: success }, additionalProperties: false };
    const responses: Record<string, unknown> = {
      [row.success.status]: {
        description: row.success.description,
        headers: headerDocs(row),
        content: { 'application/json': { schema: body, ...(row.example ? { example: row.example.response } : {}) } },
      },
    };
    if (row.notModified) responses[304] = { description: STATUS_TEXT[304], headers: headerDocs(row) };
    for (const status of row.errors) {
      responses[status] = {
        description: STATUS_TEXT[status] ?? 'Error.',
        ...(status === 429 ? { headers: { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER } } : status === 503 ? { headers: RETRY_AFTER } : {}),
        content: {
          'application/json': {
            schema:
              row.errorFormat === 'oauth'
                ? { type: 'object', required: ['error'], properties: { error: { type: 'string' }, error_description: { type: 'string' } } }
                : errorRef,
          },
        },
      };
    }
    const operation: Record<string, unknown> = {
      operationId: row.operationId,
      tags: [row.tag],
      summary: row.summary,
      description: row.description,
      parameters: parameters(row, components),
      responses,
      security: row.security === 'bearer' ? [{ bearerAuth: [] }] : row.security === 'client' ? [{ clientBasic: [] }, {}] : row.security === 'apiKey' ? [{ apiKey: [] }, ...(row.overlay ? [{ overlayToken: [] }] : [])] : [],
      'x-graphql-operation': row.operation.name,
    };
    if (row.input.body) {
      operation.requestBody = {
        required: true,
        content: {
          [row.input.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json']: {
            schema: toSchema(row.input.body, components, 'input'),
            ...(bodyExample(row) !== undefined ? { example: bodyExample(row) } : {}),
          },
        },
      };
    }
    (paths[row.path] ??= {})[row.method] = operation;
  }
  paths['/oauth/authorize'] = authorizePaths();
  Object.assign(paths, landingPaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Esports competition platform API',
      version: '2.0.0',
      description:
        'Competition management, esports data and developer applications. Every error answers ' +
        '{"error":{"code","message","requestId","details"?}} with one of the codes: ' +
        Object.keys(errorStatus).join(', ') +
        '. See /docs for the guides.',
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(['Index', ...rows.map((row) => row.tag)])].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'OAuth 2.0 access token from POST /oauth/token.' },
        oauth2: {
          type: 'oauth2',
          description: 'How access tokens are obtained: the authorization-code flow with PKCE (S256) for a token acting for a user, client credentials for the application itself. Refresh tokens rotate on every use.',
          flows: {
            authorizationCode: {
              authorizationUrl: '/oauth/authorize',
              tokenUrl: '/oauth/token',
              refreshUrl: '/oauth/token',
              scopes: Object.fromEntries(KNOWN_SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]])),
            },
            clientCredentials: { tokenUrl: '/oauth/token', scopes: Object.fromEntries(KNOWN_SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]])) },
          },
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'OAuth client id and secret (client_secret_basic).' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Organisation API key (v1).' },
        overlayToken: { type: 'apiKey', in: 'header', name: 'x-overlay-token', description: "Overlay token (v1): one event's routes only." },
      },
    },
  };
}
