// A TypeDoc plugin for the API reference (docs/api): members a class inherits from outside the
// project (Error's message, stack, captureStackTrace, ...) are left out, so each error class shows
// only what it adds. Members inherited from a documented type stay.
import { Converter, ReflectionKind } from 'typedoc';

const MEMBER_KINDS = ReflectionKind.Property | ReflectionKind.Method | ReflectionKind.Accessor;

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    const { project } = context;
    for (const member of project.getReflectionsByKind(MEMBER_KINDS)) {
      const inherited = member.inheritedFrom;
      if (inherited !== undefined && inherited.reflection === undefined) project.removeReflection(member);
    }
  });
}
