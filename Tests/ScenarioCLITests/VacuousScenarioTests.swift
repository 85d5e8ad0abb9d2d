import Foundation
import Testing

/// An expectation that can never fail is refused by `lint` and `run`, each with what to write.
@Suite("Vacuous expectations")
struct VacuousScenarioTests {
    static let folder = RepositoryPaths.root.appendingPathComponent("Tests/Fixtures/vacuous-scenarios").path

    static let cases: [(file: String, says: String)] = [
        ("empty-expect", "'expect' is empty and checks nothing"),
        ("empty-check", "'check' is empty and checks nothing"),
        ("empty-state", "'state': {} would only match an empty snapshot"),
        ("empty-requests", "'requests' is empty and checks nothing"),
        ("empty-log", "an empty 'log' checks nothing"),
        ("empty-counts", "'counts' is empty and checks nothing"),
        ("counts-unknown-exchange", "'counts' names unknown exchange 'feeed'"),
        ("checks-nothing", "the scenario checks nothing: no 'expect', no 'check' step, no invariant"),
    ]

    @Test(arguments: cases.map(\.file))
    func lintAndRunRefuseIt(file: String) throws {
        let path = Self.folder + "/\(file).json"
        let says = try #require(Self.cases.first { $0.file == file }?.says)
        for command in ["lint", "run"] {
            let result = try ScenarioBinary.run([command, path] + (command == "run" ? ["--no-reports"] : []), in: RepositoryPaths.root)
            #expect(result.status == 2, "\(command) \(file): \(result.output)")
            #expect(result.output.contains(says), "\(command) \(file): \(result.output)")
        }
    }

    @Test func everyFixtureIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".json") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(Self.cases.map(\.file)))
    }
}
