// The app's typed strategies for `vitrine.invoke`, written by vitrine-types from the Swift
// sources (`swift package generate-vitrine-types`): edit the Swift side, then run it again.
declare global {
  interface VitrineStrategies {
    /** `Greet` in Sources/__NAME__/main.swift. */
    "greet": { payload: { name: string }; result: { message: string; letters: number } };
  }
}

export {};
