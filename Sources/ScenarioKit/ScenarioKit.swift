// ScenarioKit is what a driver, a team's runner and a test bundle import: the engine and the
// tools above it, re-exported, so `import ScenarioKit` keeps giving what it always gave. Each
// layer is its own target, so the compiler keeps the engine free of the tools
// (Documentation/development.md, "Targets").
@_exported import ScenarioContracts
@_exported import ScenarioEngine
@_exported import ScenarioShrinking
@_exported import ScenarioTraces
