import Foundation
import ScenarioKit
import ScenarioTesting
import SessionKitDriver
import XCTest

/// The corpus through XCTest, as a team whose tests are XCTest cases runs it, and proof that a
/// failing scenario is recorded as a failure at its JSON file and line.
final class ScenarioXCTestTests: XCTestCase {
    func testEveryScenarioPassesThroughXCTest() async {
        let files = ScenarioFile.all(in: "Scenarios")
        XCTAssertGreaterThan(files.count, 30)
        for file in files {
            await file.check(with: SessionKitDriver(), recordingFailuresIn: self)
        }
    }

    func testAFailingScenarioIsRecordedAtItsFileAndLine() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Tests/Fixtures/failing-scenarios/wrong-state.json").path
        let recorder = FailureRecorder.make()
        let result = await ScenarioFile(id: "wrong-state", path: path).check(with: SessionKitDriver(), recordingFailuresIn: recorder)
        XCTAssertEqual(result?.status, .failed)
        XCTAssertFalse(recorder.failures.isEmpty)
        for failure in recorder.failures {
            XCTAssertEqual(failure.file, path)
            XCTAssertGreaterThan(failure.line, 1)
            XCTAssertTrue(failure.message.hasPrefix("\(path):\(failure.line):"), failure.message)
        }
    }
}

/// A test case that keeps the failures recorded on it instead of failing.
final class FailureRecorder: XCTestCase {
    struct Failure {
        var message: String
        var file: String
        var line: Int
    }
    var failures: [Failure] = []

    static func make() -> FailureRecorder {
        #if canImport(Darwin)
            FailureRecorder()
        #else
            FailureRecorder(name: "recorder", testClosure: { _ in })
        #endif
    }

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            let location = issue.sourceCodeContext.location
            failures.append(
                Failure(message: issue.compactDescription, file: location?.fileURL.path ?? "", line: location?.lineNumber ?? 0))
        }
    #else
        override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
            failures.append(Failure(message: description, file: filePath, line: lineNumber))
        }
    #endif
}
