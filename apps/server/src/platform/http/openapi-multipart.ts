import { z } from 'zod';
import { ZBulkUploadFields, ZFinderUploadFields } from '@verilead/contracts';

/** The multipart fields (besides `file`) of each upload route, for the OpenAPI document. */
const UPLOAD_FIELDS: Record<string, z.ZodObject> = {
  '/api/v1/email_verify/bulk_upload': ZBulkUploadFields,
  '/api/v1/email_verify/bulk_upload/preview': ZBulkUploadFields.pick({ email_column: true, has_header: true }),
  '/api/v1/email_finder/bulk_upload': ZFinderUploadFields,
};

/**
 * The documented multipart/form-data body of an upload route (the route reads it as a stream, so it has no
 * validated body schema): a `file` of at most 20,000,000 bytes and the route's text fields. Null for other routes.
 */
export function describeMultipartBody(url: string): Record<string, unknown> | null {
  const fields = UPLOAD_FIELDS[url];
  if (!fields) return null;
  const json = z.toJSONSchema(fields, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
  const properties = Object.fromEntries(
    Object.entries(json.properties ?? {}).map(([name, schema]) => [name, { ...(schema as object), description: `Sent as a form field before the file` }]),
  );
  return {
    type: 'object',
    required: ['file'],
    properties: {
      ...properties,
      file: { type: 'string', format: 'binary', description: 'The .csv, .xlsx or .txt file (at most 20,000,000 bytes), sent after the fields' },
    },
  };
}
