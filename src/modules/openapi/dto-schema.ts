import { DECORATORS } from '@nestjs/swagger/dist/constants';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** A JSON Schema (2020-12, as OpenAPI 3.1 takes it). */
export type JsonSchema = Record<string, unknown>;

type Ctor = abstract new (...args: never[]) => unknown;

/**
 * JSON Schemas of DTO classes, read from class-validator's metadata (no `@ApiProperty` needed).
 * Every class met (nested ones included) lands in `schemas` under its class name; `refOf`
 * answers a `$ref` to it. The rules the DTOs use are mapped; any other rule is named in the
 * property's description, so the schema never claims more than it knows.
 */
export class DtoSchemas {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly names = new Map<Ctor, string>();

  /** Whether class-validator knows rules for this class (a DTO rather than `Object`, `String`...). */
  static isDto(type: unknown): type is Ctor {
    return (
      typeof type === 'function' &&
      getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).length > 0
    );
  }

  /** A `$ref` to the schema of `type`, converting it (and what it nests) the first time. */
  refOf(type: Ctor): JsonSchema {
    return { $ref: `#/components/schemas/${this.nameOf(type)}` };
  }

  private nameOf(type: Ctor): string {
    let name = this.names.get(type);
    if (name) {
      return name;
    }
    name = type.name || 'Anonymous';
    for (let i = 2; Object.prototype.hasOwnProperty.call(this.schemas, name); i++) {
      name = `${type.name}${i}`;
    }
    this.names.set(type, name);
    this.schemas[name] = {}; // reserved first: a class nesting itself refers to its own name
    this.schemas[name] = this.convert(type);
    return name;
  }

  private convert(type: Ctor): JsonSchema {
    const storage = getMetadataStorage();
    const byProperty = storage.groupByPropertyName(
      storage.getTargetValidationMetadatas(type as never, '', true, false),
    );
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [property, rules] of Object.entries(byProperty)) {
      const derived = this.property(type, property, rules);
      // `@ApiProperty` describes what a rule of the service's own checks (a custom validator,
      // `@Allow()` with the check in the service): its schema wins over what the rules say.
      const declared = declaredProperty(type, property);
      const schema = declared ? { ...withoutNotes(derived.schema), ...declared.schema } : derived.schema;
      properties[property] = schema;
      if (declared?.required ?? !derived.optional) {
        required.push(property);
      }
    }
    return {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      // The validation pipe refuses unknown fields (forbidNonWhitelisted).
      additionalProperties: false,
    };
  }

  private property(
    type: Ctor,
    property: string,
    rules: ValidationMetadata[],
  ): { schema: JsonSchema; optional: boolean } {
    const value: JsonSchema = {};
    const unmapped: string[] = [];
    let optional = false;
    let nullable = false;
    let array = false;
    let conditional = false;
    let allowed = false;
    // class-validator refuses a missing value only when some rule runs on it (not `@Allow`).
    let checked = false;
    const items: JsonSchema = {};
    for (const rule of rules) {
      const target = rule.each ? items : value;
      if (rule.each) {
        array = true;
      }
      switch (rule.type) {
        case ValidationTypes.CONDITIONAL_VALIDATION:
          // IsOptional lets undefined and null through; ValidateIf (or OptionalNotNull) lets
          // what its function decides through: the schema can only say "not always required".
          if (rule.name === 'isOptional') {
            optional = true;
            nullable = true;
          } else {
            const skips = skipsOf(rule.constraints?.[0]);
            optional ||= skips.undefined || skips.onOtherFields;
            nullable ||= skips.null;
            conditional ||= skips.onOtherFields;
          }
          continue;
        case ValidationTypes.WHITELIST:
          // `@Allow()`: accepted as is here; whatever check it gets happens in the service.
          allowed = true;
          continue;
        case ValidationTypes.IS_DEFINED:
          checked = true;
          continue;
        case ValidationTypes.NESTED_VALIDATION: {
          checked = true;
          // The property's declared type (emitDecoratorMetadata): what `@Type(() => X)` names too.
          const nested = Reflect.getMetadata('design:type', type.prototype as object, property) as unknown;
          if (nested && DtoSchemas.isDto(nested)) {
            Object.assign(target, this.refOf(nested));
          } else {
            Object.assign(target, { type: 'object' });
          }
          continue;
        }
        default:
          checked = true;
          if (!applyRule(target, rule, () => (array = true))) {
            unmapped.push(rule.name ?? rule.constraintCls?.name ?? rule.type);
          }
      }
    }
    let schema: JsonSchema = array ? { ...value, type: 'array', items } : value;
    if (nullable && typeof schema.type === 'string') {
      schema = { ...schema, type: [schema.type, 'null'] };
    } else if (nullable && schema.$ref) {
      schema = { anyOf: [schema, { type: 'null' }] };
    }
    const notes = [
      ...(allowed && !Object.keys(schema).length ? ['checked by the service, not described here'] : []),
      ...(conditional ? ['required or not depending on other fields (ValidateIf)'] : []),
      ...(unmapped.length ? [`also checked, not described here: ${unmapped.join(', ')}`] : []),
    ];
    if (notes.length) {
      schema = { ...schema, description: notes.join('; ') };
    }
    return { schema, optional: optional || !checked };
  }
}

/** The schema without the notes `property` adds about rules it could not describe. */
function withoutNotes(schema: JsonSchema): JsonSchema {
  const { description, ...rest } = schema;
  return typeof description === 'string' && /not described here/.test(description) ? rest : schema;
}

const TYPE_NAMES = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Object, 'object'],
  [Array, 'array'],
]);

/**
 * The schema a DTO property declares with `@ApiProperty` (JSON Schema keywords as given; `type`
 * as a name or a constructor; `nullable`, `isArray`), and whether it says it is required.
 */
function declaredProperty(
  type: Ctor,
  property: string,
): { schema: JsonSchema; required?: boolean } | undefined {
  const meta = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, type.prototype as object, property) as
    Record<string, unknown> | undefined;
  if (!meta) {
    return undefined;
  }
  const { type: declaredType, isArray, required, nullable, name: _name, enumName: _enumName, ...rest } = meta;
  let schema: JsonSchema = { ...rest };
  const typeName = typeof declaredType === 'string' ? declaredType : TYPE_NAMES.get(declaredType);
  if (typeName && !schema.anyOf && !schema.oneOf && !schema.$ref) {
    schema.type = typeName;
  }
  if (isArray === true) {
    schema = { type: 'array', items: schema };
  }
  if (nullable === true) {
    schema =
      typeof schema.type === 'string'
        ? { ...schema, type: [schema.type, 'null'] }
        : { anyOf: [schema, { type: 'null' }] };
  }
  return { schema, ...(typeof required === 'boolean' ? { required } : {}) };
}

/**
 * What a `ValidateIf` condition skips, found by calling it: with `undefined` (an optional
 * field), with `null` (a nullable one), and whether it reads other fields of the object (then
 * the schema can only say the field is not always required).
 */
function skipsOf(condition: unknown): { undefined: boolean; null: boolean; onOtherFields: boolean } {
  if (typeof condition !== 'function') {
    return { undefined: false, null: false, onOtherFields: true };
  }
  let read = false;
  const probe = new Proxy(
    {},
    {
      get: () => {
        read = true;
        return undefined;
      },
    },
  );
  const runs = (value: unknown): boolean => {
    try {
      return Boolean((condition as (o: object, v: unknown) => unknown)(probe, value));
    } catch {
      read = true;
      return true;
    }
  };
  const skipsUndefined = !runs(undefined);
  const skipsNull = !runs(null);
  return { undefined: skipsUndefined, null: skipsNull, onOtherFields: read };
}

/** Maps one class-validator rule onto `s`; false when the rule has no JSON Schema form here. */
function applyRule(s: JsonSchema, rule: ValidationMetadata, markArray: () => void): boolean {
  const c = rule.constraints ?? [];
  switch (rule.name) {
    case 'isString':
      s.type = 'string';
      return true;
    case 'isNotEmpty':
      if (s.type === 'string' || s.type === undefined) {
        s.minLength = Math.max(Number(s.minLength ?? 0), 1);
      }
      return true;
    case 'isEmail':
      s.type = 'string';
      s.format = 'email';
      return true;
    case 'isUrl':
      s.type = 'string';
      s.format = 'uri';
      return true;
    case 'isUuid':
    case 'isUUID':
      s.type = 'string';
      s.format = 'uuid';
      return true;
    case 'isDateString':
    case 'isISO8601':
      s.type = 'string';
      s.format = 'date-time';
      return true;
    case 'isBoolean':
      s.type = 'boolean';
      return true;
    case 'isInt':
      s.type = 'integer';
      return true;
    case 'isNumber':
      s.type = 'number';
      return true;
    case 'min':
      s.minimum = c[0];
      return true;
    case 'max':
      s.maximum = c[0];
      return true;
    case 'minLength':
      s.type ??= 'string';
      s.minLength = c[0];
      return true;
    case 'maxLength':
      s.type ??= 'string';
      s.maxLength = c[0];
      return true;
    case 'length':
      s.type ??= 'string';
      s.minLength = c[0];
      if (c[1] !== undefined) {
        s.maxLength = c[1];
      }
      return true;
    case 'isIn':
      s.enum = [...(c[0] as unknown[])];
      return true;
    case 'equals':
      s.const = c[0];
      return true;
    case 'matches':
      s.type ??= 'string';
      if (c[0] instanceof RegExp && !c[0].flags.replace('g', '')) {
        s.pattern = c[0].source;
        return true;
      }
      if (typeof c[0] === 'string' && !c[1]) {
        s.pattern = c[0];
        return true;
      }
      return false;
    case 'isArray':
      markArray();
      return true;
    case 'arrayMaxSize':
      markArray();
      s.maxItems = c[0];
      return true;
    case 'arrayMinSize':
      markArray();
      s.minItems = c[0];
      return true;
    case 'arrayNotEmpty':
      markArray();
      s.minItems = 1;
      return true;
    case 'arrayUnique':
      markArray();
      s.uniqueItems = true;
      return true;
    case 'isObject':
      s.type = 'object';
      return true;
    default:
      return false;
  }
}
