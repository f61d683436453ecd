import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateImageSizeDto, UpdateImageSizeDto } from '../../src/modules/media/dto/image-size.dto';
import { DtoSchemas } from '../../src/modules/openapi/dto-schema';

const PROPERTIES = {
  name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
  width: { maximum: 10000, minimum: 1, type: ['integer', 'null'] },
  height: { maximum: 10000, minimum: 1, type: ['integer', 'null'] },
  fit: { enum: ['cover', 'contain', 'inside'] },
  format: { enum: ['webp', 'jpeg', 'png', 'avif'] },
  quality: { maximum: 100, minimum: 1, type: ['integer', 'null'] },
};

/** The properties class-validator refuses in `body`, each with its failed rules, as the validation pipe reads them. */
function refused(
  dto: typeof CreateImageSizeDto | typeof UpdateImageSizeDto,
  body: object,
): Record<string, string[]> {
  const errors = validateSync(plainToInstance(dto, body), { whitelist: true, forbidNonWhitelisted: true });
  return Object.fromEntries(errors.map((e) => [e.property, Object.keys(e.constraints ?? {})]));
}

/** Image-size bodies: one set of rules for create and update; only `name` differs (required, or optional but not null). */
describe('image-size DTOs', () => {
  it('document both bodies as before (the OpenAPI schemas, key order included)', () => {
    const schemas = new DtoSchemas();
    schemas.refOf(CreateImageSizeDto);
    schemas.refOf(UpdateImageSizeDto);
    expect(JSON.stringify(schemas.schemas.CreateImageSizeDto)).toBe(
      JSON.stringify({
        type: 'object',
        properties: PROPERTIES,
        required: ['name'],
        additionalProperties: false,
      }),
    );
    expect(JSON.stringify(schemas.schemas.UpdateImageSizeDto)).toBe(
      JSON.stringify({ type: 'object', properties: PROPERTIES, additionalProperties: false }),
    );
  });

  it('create: a name is required; the other rules as update', () => {
    expect(refused(CreateImageSizeDto, { width: 10 })).toEqual({ name: ['matches', 'isString'] });
    expect(refused(CreateImageSizeDto, { name: ' thumb ', width: 10, fit: 'cover' })).toEqual({});
    expect(plainToInstance(CreateImageSizeDto, { name: ' thumb ' }).name).toBe('thumb');
  });

  it('update: every key optional, name not null; the same rules for the rest', () => {
    expect(refused(UpdateImageSizeDto, {})).toEqual({});
    expect(refused(UpdateImageSizeDto, { name: null })).toEqual({ name: ['matches', 'isString'] });
    expect(refused(UpdateImageSizeDto, { width: null, format: null, quality: null })).toEqual({});
    expect(plainToInstance(UpdateImageSizeDto, { name: ' thumb ' }).name).toBe('thumb');
    for (const dto of [CreateImageSizeDto, UpdateImageSizeDto]) {
      expect(
        refused(dto, {
          name: 'Bad Name',
          width: 0,
          height: 10_001,
          fit: null,
          format: 'gif',
          quality: 101,
          x: 1,
        }),
      ).toEqual({
        name: ['matches'],
        width: ['min'],
        height: ['max'],
        fit: ['isIn'],
        format: ['isIn'],
        quality: ['max'],
        x: ['whitelistValidation'],
      });
    }
  });
});
