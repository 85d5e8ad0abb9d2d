import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A driver reads `given` and arguments as its own `Decodable` types.
@Suite struct DecodableGivenTests {
    struct Given: Decodable, Equatable {
        struct Session: Decodable, Equatable {
            var accessToken: String
            var refreshToken: String?
        }
        var session: Session
        var retries: [Int]
    }

    @Test func nestedValuesDecodeIntoTheDriversTypes() throws {
        let given: JSONValue = ["session": ["accessToken": "a-1"], "retries": [1, 2]]
        let decoded = try given.decode(Given.self)
        #expect(decoded == Given(session: .init(accessToken: "a-1", refreshToken: nil), retries: [1, 2]))
    }

    @Test func aMismatchNamesItsPath() {
        let given: JSONValue = ["session": ["accessToken": 7], "retries": [1, "two"]]
        #expect {
            try given.decode(Given.self)
        } throws: { error in
            "\(error)".contains("$.session.accessToken") && "\(error)".contains("expected String")
        }
        let missing: JSONValue = ["retries": []]
        #expect(throws: DriverDecodingError.self) { try missing.decode(Given.self) }
        #expect((try? missing.decode(Given.self)) == nil)
    }
}
