import Foundation
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

/// Checks a JUnit report's structure without a schema: every count adds up, test case names
/// are unique per class name, and the cases are the ones expected.
enum JUnitStructure {
    /// What the report holds, once checked.
    struct Summary {
        var tests = 0, failures = 0, errors = 0, skipped = 0
        /// `classname/name` of every test case, in order.
        var cases: [String] = []
    }

    /// Parses and checks the report, recording an issue for every inconsistency.
    @discardableResult
    static func check(_ xml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Summary {
        let root = try JUnitMerge.parse(Data(xml.utf8), name: "report")
        #expect(root.name == "testsuites", sourceLocation: sourceLocation)
        var total = Summary()
        var totalMillis: Int64 = 0
        for suite in root.elements {
            #expect(suite.name == "testsuite", sourceLocation: sourceLocation)
            var counted = Summary()
            var millis: Int64 = 0
            var names = Set<String>()
            for testcase in suite.elements where testcase.name == "testcase" {
                counted.tests += 1
                let kinds = testcase.elements.map(\.name)
                #expect(kinds.filter { ["failure", "error", "skipped"].contains($0) }.count <= 1, sourceLocation: sourceLocation)
                if kinds.contains("failure") { counted.failures += 1 }
                if kinds.contains("error") { counted.errors += 1 }
                if kinds.contains("skipped") { counted.skipped += 1 }
                millis += JUnitReport.milliseconds(testcase[attribute: "time"])
                let name = testcase[attribute: "name"] ?? ""
                let classname = testcase[attribute: "classname"] ?? ""
                #expect(classname == suite[attribute: "name"], "a case's classname is its suite's name", sourceLocation: sourceLocation)
                #expect(names.insert(name).inserted, "duplicate test case name \(name) in \(classname)", sourceLocation: sourceLocation)
                counted.cases.append(classname + "/" + name)
            }
            #expect(suite[attribute: "tests"] == String(counted.tests), sourceLocation: sourceLocation)
            #expect(suite[attribute: "failures"] == String(counted.failures), sourceLocation: sourceLocation)
            #expect(suite[attribute: "errors"] == String(counted.errors), sourceLocation: sourceLocation)
            #expect(suite[attribute: "skipped"] == String(counted.skipped), sourceLocation: sourceLocation)
            #expect(JUnitReport.milliseconds(suite[attribute: "time"]) == millis, sourceLocation: sourceLocation)
            total.tests += counted.tests
            total.failures += counted.failures
            total.errors += counted.errors
            total.skipped += counted.skipped
            total.cases += counted.cases
            totalMillis += millis
        }
        #expect(root[attribute: "tests"] == String(total.tests), sourceLocation: sourceLocation)
        #expect(root[attribute: "failures"] == String(total.failures), sourceLocation: sourceLocation)
        #expect(root[attribute: "errors"] == String(total.errors), sourceLocation: sourceLocation)
        #expect(JUnitReport.milliseconds(root[attribute: "time"]) == totalMillis, sourceLocation: sourceLocation)
        return total
    }

    /// Validates against the XSD when xmllint and the schema are there; otherwise does nothing.
    static func validateIfPossible(_ xml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        guard XMLLint.url != nil, let schema = RepositoryPaths.junitSchema else { return }
        let problems = try XMLLint.problems(validatingText: xml, against: schema)
        #expect(problems == nil, "xmllint: \(problems ?? "")", sourceLocation: sourceLocation)
    }
}
