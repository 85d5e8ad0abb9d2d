// swift-tools-version:6.0
import PackageDescription

// A team's own package, as a new user writes it: its stack, its driver, and this repository as
// a dependency by path. `scripts/adopter-check` builds it, runs its scenarios through the
// library command line and through `swift test`.
let package = Package(
    name: "Adopter",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "SessionScenarios", path: "../..")],
    targets: [
        .target(name: "NotesKit"),
        .target(name: "NotesDriver", dependencies: ["NotesKit", .product(name: "ScenarioKit", package: "SessionScenarios")]),
        .executableTarget(
            name: "notes-scenarios",
            dependencies: ["NotesDriver", .product(name: "ScenarioCommandLine", package: "SessionScenarios")]),
        .testTarget(
            name: "NotesScenarioTests",
            dependencies: ["NotesDriver", .product(name: "ScenarioTesting", package: "SessionScenarios")]),
    ],
    swiftLanguageModes: [.v6]
)
