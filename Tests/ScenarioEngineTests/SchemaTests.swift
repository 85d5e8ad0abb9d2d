import Foundation
import ScenarioEngine
import ScenarioTestSupport
import Testing

/// Keeps `Scenarios/scenario.schema.json`, the loader and the scenario files in agreement.
@Suite struct SchemaTests {
    static let scenariosFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    static func schema() throws -> SchemaValidator {
        let url = scenariosFolder.appendingPathComponent("scenario.schema.json")
        return SchemaValidator(root: try JSONTextParser(data: try Data(contentsOf: url), file: url.path).parseDocument().value)
    }

    private static func parse(_ text: String) throws -> JSONValue {
        try JSONTextParser(data: Data(text.utf8), file: "<test>").parseDocument().value
    }

    @Test func schemaIsWellFormedDraft2020() throws {
        let validator = try Self.schema()
        #expect(validator.root["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        // Validating anything walks the whole schema, so an unsupported keyword or a bad $ref shows up here.
        let failures = validator.validate(try Self.parse(LoaderFixtures.fullScenario))
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func everyScenarioFileValidates() throws {
        let validator = try Self.schema()
        // The repository's field session too: a bug report is a scenario like the others.
        let field = Self.scenariosFolder.deletingLastPathComponent().appendingPathComponent("Examples/FieldSession/Scenarios")
        let found = try ScenarioDiscovery.find([Self.scenariosFolder.path, field.path])
        for scenario in found {
            let value = try JSONTextParser(data: try Data(contentsOf: URL(fileURLWithPath: scenario.path)), file: scenario.path)
                .parseDocument().value
            let failures = validator.validate(value)
            #expect(failures.isEmpty, "\(scenario.id): \(failures)")
        }
    }

    @Test(arguments: LoaderFixtures.badCases.filter(\.schemaRejects))
    func badFixtureIsRejectedByBothSchemaAndLoader(_ bad: LoaderFixtures.BadCase) throws {
        let failures = try Self.schema().validate(try Self.parse(bad.text))
        #expect(!failures.isEmpty, "the schema accepts \(bad.label)")
        let loaded = LoaderFixtures.loader.load(data: Data(bad.text.utf8), file: "bad.json", id: "bad")
        #expect(throws: LoadFailure.self) { try loaded.get() }
    }

    @Test func schemaAcceptsWhatTheLoaderAcceptsForTheSmallCases() throws {
        let validator = try Self.schema()
        for text in [
            #"{"name": "n", "description": "d", "steps": [], "expect": {"requests": {"total": 0}}}"#,
            LoaderFixtures.document(exchanges: #"{ "request": {}, "fault": "cancelled", "times": "unlimited", "latency": "0ms" }"#),
            LoaderFixtures.document(
                steps: #"{ "advance": "1h30m" }, { "advance": "250ms" }, { "advance": "1.5s" }, { "runUntilIdle": true }"#),
        ] {
            #expect(throws: Never.self) { try LoaderFixtures.loader.load(data: Data(text.utf8), file: "ok.json", id: "ok").get() }
            #expect(validator.validate(try Self.parse(text)).isEmpty, "\(text)")
        }
    }

    /// The schema's property names per kind of object are exactly the keys the loader accepts.
    @Test func schemaAndLoaderAcceptTheSameKeys() throws {
        let root = try Self.schema().root
        func properties(_ schema: JSONValue?) -> Set<String> { Set(schema?["properties"]?.objectValue?.keys ?? []) }
        func definition(_ name: String) -> JSONValue? { root["$defs"]?[name] }

        #expect(properties(root) == Set(ScenarioKeys.topLevel))
        #expect(properties(definition("relax")) == Set(ScenarioKeys.relax))
        #expect(properties(definition("clock")) == Set(ScenarioKeys.clock))
        #expect(properties(definition("given")) == [ScenarioKeys.givenClock])
        #expect(properties(definition("exchange")) == Set(ScenarioKeys.exchange))
        #expect(properties(definition("request")) == Set(ScenarioKeys.request))
        #expect(properties(definition("response")) == Set(ScenarioKeys.response))
        #expect(properties(definition("release")) == Set(ScenarioKeys.release))
        #expect(properties(definition("verify")) == Set(ScenarioKeys.verify))
        #expect(properties(definition("groupMember")) == Set(ScenarioKeys.groupMember))
        #expect(properties(definition("outcome")) == Set(ScenarioKeys.outcome))
        #expect(properties(definition("expectations")) == Set(ScenarioKeys.expectations))
        #expect(properties(definition("requestExpectations")) == Set(ScenarioKeys.requestExpectations))
        #expect(properties(definition("logEntry")) == Set(ScenarioKeys.logEntry))
        #expect(definition("exchange")?["properties"]?["fault"]?["enum"] == .array(ScenarioKeys.faults.map(JSONValue.string)))
        #expect(properties(definition("invariantChanges")) == Set(InvariantKeys.changes))
        #expect(properties(definition("invariant")) == Set(InvariantKeys.common + InvariantKeys.checks.flatMap(\.keys)))
        #expect(properties(definition("invariantValue")) == Set(InvariantKeys.value))
        #expect(properties(definition("invariantEvent")) == Set(InvariantKeys.event))
        #expect(properties(definition("invariantAnswer")) == Set(InvariantKeys.answer))
        #expect(properties(definition("invariantSessions")) == Set(InvariantKeys.sessions))
        #expect(definition("invariant")?["properties"]?["check"]?["enum"] == .array(InvariantKeys.checks.map { .string($0.name) }))

        // Each step variant: its required kind key and its properties.
        let variants = definition("step")?["oneOf"]?.arrayValue ?? []
        #expect(variants.count == ScenarioKeys.stepKinds.count)
        var seenKinds: [String] = []
        for variant in variants {
            let reference = variant["$ref"]?.stringValue ?? ""
            let step = definition(String(reference.dropFirst("#/$defs/".count)))
            let kind = step?["required"]?.arrayValue?.first?.stringValue ?? "?"
            seenKinds.append(kind)
            #expect(properties(step) == Set(ScenarioKeys.stepForms[kind] ?? []), "step kind \(kind)")
            #expect(step?["additionalProperties"] == false)
        }
        #expect(seenKinds == ScenarioKeys.stepKinds)
        #expect(Set(ScenarioKeys.stepForms.values.joined()) == Set(ScenarioKeys.allStepKeys))

        // Wherever the schema lists properties (but for 'given', which the driver extends), it is strict.
        for (name, definition) in root["$defs"]?.objectValue ?? JSONObject() where definition["properties"] != nil && name != "given" {
            #expect(definition["additionalProperties"] == false, "$defs.\(name)")
        }
        #expect(root["additionalProperties"] == false)
    }

    /// `invariants.schema.json` accepts every invariant file of the package, and the loader loads them.
    @Test func everyInvariantFileValidatesAndLoads() throws {
        let url = Self.scenariosFolder.appendingPathComponent("invariants.schema.json")
        let validator = SchemaValidator(root: try JSONTextParser(data: try Data(contentsOf: url), file: url.path).parseDocument().value)
        let package = Self.scenariosFolder.deletingLastPathComponent()
        let files = [
            "Scenarios", "Examples/SampleApp/Scenarios", "Examples/DispatchApp/Scenarios", "Examples/TwoSessionApp/Scenarios",
            "Examples/FieldSession/Scenarios",
        ]
        .map { package.appendingPathComponent($0).appendingPathComponent(InvariantFiles.fileName).path }
        for file in files {
            let value = try JSONTextParser(data: try Data(contentsOf: URL(fileURLWithPath: file)), file: file).parseDocument().value
            #expect(validator.validate(value).isEmpty, "\(file): \(validator.validate(value))")
            #expect(throws: Never.self) { try InvariantFiles.load(contentsOf: file).get() }
        }
        #expect(!validator.validate(try Self.parse(#"{"invariants": [{"id": "x", "description": "d", "check": "nope"}]}"#)).isEmpty)
    }
}
