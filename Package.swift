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
        .library(name: "ScenarioKit", targets: ["ScenarioKit"]),
        .library(name: "SessionKitDriver", targets: ["SessionKitDriver"]),
        .library(name: "ScenarioCommandLine", targets: ["ScenarioCommandLine"]),
        .library(name: "ScenarioTesting", targets: ["ScenarioTesting"]),
        .executable(name: "scenario", targets: ["scenario"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "HTTPCore"),
        .target(name: "SessionKit", dependencies: ["HTTPCore"]),
        // Redirects libdispatch's entry points so a scenario owns the stack's Dispatch work (Linux).
        .target(name: "CDispatchCapture"),
        .target(name: "ScenarioKit", dependencies: ["HTTPCore", "CDispatchCapture"]),
        .target(name: "SessionKitDriver", dependencies: ["ScenarioKit", "SessionKit", "HTTPCore"]),
        .target(name: "ScenarioCommandLine", dependencies: ["ScenarioKit"], resources: [.copy("Templates/scenario.schema.json")]),
        .target(name: "ScenarioTesting", dependencies: ["ScenarioKit"]),
        .executableTarget(name: "scenario", dependencies: ["ScenarioCommandLine", "SessionKitDriver"]),
        .executableTarget(name: "scenario-bench", dependencies: ["ScenarioKit", "SessionKitDriver", "FieldSessionDriver", "HTTPCore"]),
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
        // The sample app as a field session's build had it: the feed's own client, a refresh not shared.
        .target(
            name: "FieldSessionDriver", dependencies: ["SampleApp", "SampleAppDriver", "ScenarioKit"],
            path: "Examples/FieldSession/Sources/FieldSessionDriver"),
        // The same behaviour with two clients, each over its own URLSession (app calls, auth calls).
        .target(name: "TwoSessionApp", path: "Examples/TwoSessionApp/Sources/TwoSessionApp"),
        .target(
            name: "TwoSessionAppDriver", dependencies: ["TwoSessionApp", "ScenarioKit", "HTTPCore"],
            path: "Examples/TwoSessionApp/Sources/TwoSessionAppDriver"),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"]),
        .testTarget(name: "SessionKitTests", dependencies: ["SessionKit", "HTTPCore"]),
        .testTarget(name: "ScenarioKitTests", dependencies: ["ScenarioKit", "HTTPCore"]),
        .testTarget(
            name: "ScenarioSuiteTests",
            dependencies: ["ScenarioKit", "ScenarioTesting", "SessionKitDriver", "HTTPCore", "ExampleStackChecks"]
        ),
        // SessionKit: the app whose own URLSession is recorded and replayed by the built `scenario`.
        // The sample app and its field build: an app that watches its own traffic, and the loop back to a scenario.
        .testTarget(
            name: "ScenarioCLITests",
            dependencies: ["ScenarioKit", "SessionKit", "HTTPCore", "SampleApp", "SampleAppDriver", "FieldSessionDriver"]),
        // What the example stacks' test targets check the same way.
        .target(name: "ExampleStackChecks", dependencies: ["ScenarioKit"], path: "Tests/ExampleStackChecks"),
        .testTarget(name: "SampleAppTests", dependencies: ["SampleAppDriver", "FieldSessionDriver", "ScenarioKit", "ExampleStackChecks"]),
        .testTarget(name: "DispatchAppTests", dependencies: ["DispatchAppDriver", "ScenarioKit", "ExampleStackChecks"]),
        .testTarget(name: "TwoSessionAppTests", dependencies: ["TwoSessionAppDriver", "ScenarioKit", "ExampleStackChecks"]),
    ],
    swiftLanguageModes: [.v6]
)
