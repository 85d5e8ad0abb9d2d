// swift-tools-version:6.0
import PackageDescription

// No dependencies: Foundation, Dispatch, XCTest and Swift Testing only.
let package = Package(
    name: "SessionScenarios",
    // Task executors (SE-0417) and `any Clock<Duration>` set the floor on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "SessionKit", targets: ["SessionKit"]),
        .library(name: "ScenarioKit", targets: ["ScenarioKit"]),
        .library(name: "SessionKitDriver", targets: ["SessionKitDriver"]),
        .executable(name: "scenario", targets: ["scenario"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "HTTPCore"),
        .target(name: "SessionKit", dependencies: ["HTTPCore"]),
        .target(name: "ScenarioKit", dependencies: ["HTTPCore"]),
        .target(name: "SessionKitDriver", dependencies: ["ScenarioKit", "SessionKit", "HTTPCore"]),
        // An app layer written the way iOS teams write it, and its driver; examples, not products.
        .target(name: "SampleApp", path: "Examples/SampleApp/Sources/SampleApp"),
        .target(
            name: "SampleAppDriver", dependencies: ["SampleApp", "ScenarioKit", "HTTPCore"],
            path: "Examples/SampleApp/Sources/SampleAppDriver"),
        .executableTarget(name: "scenario", dependencies: ["ScenarioKit", "SessionKitDriver"]),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"]),
        .testTarget(name: "SessionKitTests", dependencies: ["SessionKit", "HTTPCore"]),
        .testTarget(name: "ScenarioKitTests", dependencies: ["ScenarioKit", "HTTPCore"]),
        .testTarget(
            name: "ScenarioSuiteTests",
            dependencies: ["ScenarioKit", "SessionKitDriver", "HTTPCore"]
        ),
        .testTarget(name: "ScenarioCLITests", dependencies: ["ScenarioKit"]),
        .testTarget(name: "SampleAppTests", dependencies: ["SampleAppDriver", "ScenarioKit"]),
    ],
    swiftLanguageModes: [.v6]
)
