// A tiny Given/When/Then helper for pure reducers, in the style of emmett's DeciderSpecification.
import { expect } from '@jest/globals';

/**
 * How to drive one reducer: `step(state, input)` returns whatever the reducer returns, and
 * `stateAfter` extracts the next state from it (so the step's extra outputs can be asserted).
 */
export interface Reducer<State, Input, Step> {
  readonly initial: State;
  readonly step: (state: State, input: Input) => Step;
  readonly stateAfter: (state: State, step: Step) => State;
}

/** The assertion half of a specification. */
export interface Then<Step> {
  /** Asserts the whole result of the `when` input (strict deep equality). */
  readonly then: (expected: Step) => void;
  /** Hands the result of the `when` input to custom assertions. */
  readonly thenCheck: (check: (actual: Step) => void) => void;
}

/** The specification builder: `given(inputs).when(input).then(expected)`. */
export interface Specification<Input, Step> {
  readonly given: (inputs: readonly Input[]) => { readonly when: (input: Input) => Then<Step> };
}

/**
 * Builds a Given/When/Then specification for `reducer`.
 *
 * @example
 * const spec = specificationFor(cursorReducer('agent:a:main'));
 * spec.given([{ type: 'seed', at: seq(3) }]).when(drain).then({ ... });
 */
export function specificationFor<State, Input, Step>(reducer: Reducer<State, Input, Step>): Specification<Input, Step> {
  return {
    given: (inputs) => ({
      when: (input) => {
        const run = (): Step => {
          const state = inputs.reduce((s, i) => reducer.stateAfter(s, reducer.step(s, i)), reducer.initial);
          return reducer.step(state, input);
        };
        return {
          then: (expected) => expect(run()).toStrictEqual(expected),
          thenCheck: (check) => check(run()),
        };
      },
    }),
  };
}
