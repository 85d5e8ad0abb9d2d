// swift-tools-version:6.0
import PackageDescription

// No dependencies: Foundation, Dispatch, XCTest and Swift Testing only.
let package = Package(
    name: "SessionScenarios",
    // `Duration` and `any Clock<Duration>` set the floor; the capture needs nothing newer
    // (README, "Platforms").
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "SessionKit", targets: ["SessionKit"]),
        // The engine and the tools above it, re-exported: what a driver and a team's runner import.
        .library(name: "ScenarioKit", targets: ["ScenarioKit"]),
        .library(name: "ScenarioEngine", targets: ["ScenarioEngine"]),
        .library(name: "ScenarioTraces", targets: ["ScenarioTraces"]),
        .library(name: "ScenarioShrinking", targets: ["ScenarioShrinking"]),
        .library(name: "ScenarioContracts", targets: ["ScenarioContracts"]),
        .library(name: "SessionKitDriver", targets: ["SessionKitDriver"]),
        .library(name: "ScenarioCommandLine", targets: ["ScenarioCommandLine"]),
        .library(name: "ScenarioTesting", targets: ["ScenarioTesting"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "HTTPCore"),
        .target(name: "SessionKit", dependencies: ["HTTPCore"]),
        // Rebinds what a stack calls through (Dispatch, clocks and sleeps, the network, run-loop
        // timers) so a scenario owns its work and time (Linux; a stub that says so elsewhere).
        .target(name: "CRuntimeHooks"),
        // The engine: load, plan, run, host and capture, record, check, redact, report. No tools.
        .target(name: "ScenarioEngine", dependencies: ["HTTPCore", "CRuntimeHooks"]),
        // Tools above the engine, each depending on it and never the other way.
        .target(name: "ScenarioTraces", dependencies: ["ScenarioEngine", "HTTPCore"]),
        .target(name: "ScenarioShrinking", dependencies: ["ScenarioEngine"]),
        .target(name: "ScenarioContracts", dependencies: ["ScenarioEngine", "ScenarioTraces", "HTTPCore"]),
        .target(name: "ScenarioKit", dependencies: ["ScenarioEngine", "ScenarioTraces", "ScenarioShrinking", "ScenarioContracts"]),
        .target(name: "SessionKitDriver", dependencies: ["ScenarioKit", "SessionKit", "HTTPCore"]),
        .target(
            name: "ScenarioCommandLine",
            dependencies: ["ScenarioEngine", "ScenarioTraces", "ScenarioShrinking", "ScenarioContracts"],
            resources: [.copy("Templates/scenario.schema.json"), .copy("Templates/invariants.schema.json")]),
        .target(name: "ScenarioTesting", dependencies: ["ScenarioEngine", "ScenarioShrinking"]),
        // SessionKit's runner: `swift run scenario` here. Not a product, so an adopting package's
        // `swift run` never reaches the reference driver; its own runner names itself.
        .executableTarget(name: "scenario", dependencies: ["ScenarioCommandLine", "SessionKitDriver"]),
        .executableTarget(
            name: "scenario-bench", dependencies: ["ScenarioKit", "SessionKitDriver", "FieldSessionDriver", "TaskBoardDriver", "HTTPCore"]),
        // An app layer written the way iOS teams write it, and its driver; examples, not products.
        .target(name: "SampleApp", path: "Examples/SampleApp/Sources/SampleApp"),
        .target(
            name: "SampleAppDriver", dependencies: ["SampleApp", "ScenarioKit", "HTTPCore"],
            path: "Examples/SampleApp/Sources/SampleAppDriver"),
        // The same app layer in the completion-handler and DispatchQueue style, and its driver.
        .target(name: "DispatchApp", path: "Examples/DispatchApp/Sources/DispatchApp"),
        .target(
            name: "DispatchAppDriver", dependencies: ["DispatchApp", "ScenarioKit", "HTTPCore"],
            path: "Examples/DispatchApp/Sources/DispatchAppDriver"),
        // Each example's runner, as a team's is: the library command line with its driver.
        .executableTarget(
            name: "sampleapp-scenarios", dependencies: ["SampleAppDriver", "ScenarioCommandLine"],
            path: "Examples/SampleApp/Sources/sampleapp-scenarios"),
        // The sample app as a field session's build had it: the feed's own client, a refresh not shared.
        .target(
            name: "FieldSessionDriver", dependencies: ["SampleApp", "SampleAppDriver", "ScenarioKit"],
            path: "Examples/FieldSession/Sources/FieldSessionDriver"),
        .executableTarget(
            name: "fieldsession-scenarios", dependencies: ["FieldSessionDriver", "ScenarioCommandLine"],
            path: "Examples/FieldSession/Sources/fieldsession-scenarios"),
        // The same behaviour with two clients, each over its own URLSession (app calls, auth calls).
        .target(name: "TwoSessionApp", path: "Examples/TwoSessionApp/Sources/TwoSessionApp"),
        .target(
            name: "TwoSessionAppDriver", dependencies: ["TwoSessionApp", "ScenarioKit", "HTTPCore"],
            path: "Examples/TwoSessionApp/Sources/TwoSessionAppDriver"),
        // Stacks with a field bug, each in a buggy and a fixed release, their drivers, and a runner
        // whose driver is the buggy release: a shared refresh (TaskBoard), Retry-After (Storefront),
        // a sign-out that stops the calls on their way (Messenger).
        .target(name: "TaskBoard", path: "Examples/TaskBoard/Sources/TaskBoard"),
        .target(name: "TaskBoardDriver", dependencies: ["TaskBoard", "ScenarioKit"], path: "Examples/TaskBoard/Sources/TaskBoardDriver"),
        .executableTarget(
            name: "taskboard-scenarios", dependencies: ["TaskBoardDriver", "ScenarioCommandLine"],
            path: "Examples/TaskBoard/Sources/taskboard-scenarios"),
        .target(name: "Storefront", path: "Examples/Storefront/Sources/Storefront"),
        .target(
            name: "StorefrontDriver", dependencies: ["Storefront", "ScenarioKit"], path: "Examples/Storefront/Sources/StorefrontDriver"),
        .executableTarget(
            name: "storefront-scenarios", dependencies: ["StorefrontDriver", "ScenarioCommandLine"],
            path: "Examples/Storefront/Sources/storefront-scenarios"),
        .target(name: "Messenger", path: "Examples/Messenger/Sources/Messenger"),
        .target(name: "MessengerDriver", dependencies: ["Messenger", "ScenarioKit"], path: "Examples/Messenger/Sources/MessengerDriver"),
        .executableTarget(
            name: "messenger-scenarios", dependencies: ["MessengerDriver", "ScenarioCommandLine"],
            path: "Examples/Messenger/Sources/messenger-scenarios"),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"]),
        .testTarget(name: "SessionKitTests", dependencies: ["SessionKit", "HTTPCore"]),
        // What the engine's and the tools' tests share: small drivers that do one thing each.
        .target(name: "ScenarioTestSupport", dependencies: ["ScenarioEngine", "HTTPCore"], path: "Tests/ScenarioTestSupport"),
        .testTarget(name: "ScenarioEngineTests", dependencies: ["ScenarioEngine", "ScenarioTestSupport", "HTTPCore"]),
        .testTarget(name: "ScenarioTracesTests", dependencies: ["ScenarioTraces", "ScenarioEngine", "ScenarioTestSupport", "HTTPCore"]),
        .testTarget(
            name: "ScenarioShrinkingTests", dependencies: ["ScenarioShrinking", "ScenarioEngine", "ScenarioTestSupport", "HTTPCore"]),
        .testTarget(
            name: "ScenarioContractsTests",
            dependencies: ["ScenarioContracts", "ScenarioTraces", "ScenarioEngine", "ScenarioTestSupport", "HTTPCore"]),
        .testTarget(
            name: "ScenarioSuiteTests",
            dependencies: ["ScenarioKit", "ScenarioTesting", "SessionKitDriver", "HTTPCore", "ExampleStackChecks"]
        ),
        // SessionKit: the app whose own URLSession is recorded and replayed by the built `scenario`;
        // the sample app and its field build: an app that watches its own traffic, and the loop back to a scenario.
        .testTarget(
            name: "ScenarioCLITests",
            dependencies: [
                "ScenarioKit", "ScenarioEngine", "ScenarioTraces", "ScenarioShrinking", "ScenarioContracts", "SessionKit", "HTTPCore",
                "SampleApp", "SampleAppDriver", "FieldSessionDriver",
            ]),  // What the example stacks' test targets check the same way.
        .target(name: "ExampleStackChecks", dependencies: ["ScenarioKit"], path: "Tests/ExampleStackChecks"),
        .testTarget(name: "SampleAppTests", dependencies: ["SampleAppDriver", "FieldSessionDriver", "ScenarioKit", "ExampleStackChecks"]),
        .testTarget(name: "DispatchAppTests", dependencies: ["DispatchAppDriver", "ScenarioKit", "ExampleStackChecks"]),
        .testTarget(name: "TwoSessionAppTests", dependencies: ["TwoSessionAppDriver", "ScenarioKit", "ExampleStackChecks"]),
        // The field bugs' acceptance: each stack's HAR imported and shrunk by its runner, which the
        // package builds beside the test bundle.
        .testTarget(
            name: "FieldBugTests",
            dependencies: ["TaskBoardDriver", "StorefrontDriver", "MessengerDriver", "ScenarioKit", "ExampleStackChecks"]),
    ],
    swiftLanguageModes: [.v6]
)
