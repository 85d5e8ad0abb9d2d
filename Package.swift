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
        // The sample app as a field session's build had it: the feed's own client, a refresh not shared.
        .target(
            name: "FieldSessionDriver", dependencies: ["SampleApp", "SampleAppDriver", "ScenarioKit"],
            path: "Examples/FieldSession/Sources/FieldSessionDriver"),
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
        .testTarget(name: "ScenarioKitTests", dependencies: ["ScenarioKit", "HTTPCore"]),
        .testTarget(
            name: "ScenarioSuiteTests",
            dependencies: ["ScenarioKit", "ScenarioTesting", "SessionKitDriver", "HTTPCore", "ExampleStackChecks"]
        ),
        // SessionKit: the app whose own URLSession is recorded and replayed by the built `scenario`.
        .testTarget(name: "ScenarioCLITests", dependencies: ["ScenarioKit", "SessionKit", "HTTPCore"]),
        // What the example stacks' test targets check the same way.
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
