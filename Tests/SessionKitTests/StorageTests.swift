import Foundation
import Testing

@testable import SessionKit

@Suite("Stores and JSON values")
struct StorageTests {
    private func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("sessionkit-tests-\(UUID().uuidString)")
            .appendingPathComponent("store.json")
    }

    @Test("file token store round-trips, clears, and reads a corrupt file as empty")
    func fileTokenStore() async throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = FileTokenStore(url: url)
        #expect(await store.load() == nil)
        try await store.save(SessionTokens(accessToken: "A1", refreshToken: "R1"))
        #expect(await FileTokenStore(url: url).load() == SessionTokens(accessToken: "A1", refreshToken: "R1"))
        try Data("{not json".utf8).write(to: url)
        #expect(await store.load() == nil)
        try await store.save(SessionTokens(accessToken: "A2", refreshToken: nil))
        #expect(await store.load()?.accessToken == "A2")
        try await store.clear()
        try await store.clear()  // clearing nothing is fine
        #expect(await store.load() == nil)
    }

    @Test("file session store keeps user, preferences and markers; corrupt reads empty")
    func fileSessionStore() async throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = FileSessionStore(url: url)
        try await store.setUser(SessionUser(id: "u1", name: "Ana", email: "a@x.com"))
        try await store.setPreference("dark", forKey: "theme")
        try await store.setSyncMarker("2027-01-15T08:00:00Z", forScope: "user")
        let reread = await FileSessionStore(url: url).record()
        #expect(reread.user?.id == "u1")
        #expect(reread.preferences == ["theme": "dark"])
        #expect(reread.syncMarkers == ["user": "2027-01-15T08:00:00Z"])
        try Data([0xFF, 0x00]).write(to: url)
        #expect(await store.record() == .empty)
        try await store.clear()
        #expect(await store.record() == .empty)
    }

    @Test("JSON values decode leniently and never trap", arguments: ["", "nope", "{", "[1,", "}{"])
    func undecodable(text: String) {
        #expect(JSONValue.decode(Data(text.utf8)) == nil)
    }

    @Test("JSON values keep every kind apart: booleans are not the numbers 0 and 1")
    func kinds() {
        let value = JSONValue.decode(Data(#"[true, 1, false, 0, 1.5, -2e3, null, "1", {"k": [true]}, [], {}]"#.utf8))
        #expect(
            value
                == .array([
                    .bool(true), .number(1), .bool(false), .number(0), .number(1.5), .number(-2000), .null, .string("1"),
                    .object(["k": .array([.bool(true)])]), .array([]), .object([:]),
                ]))
        #expect(JSONValue.decode(Data("7".utf8)) == .number(7))
        #expect(JSONValue.decode(Data(#""\u00e9\ud834\udd1e""#.utf8)) == .string("é𝄞"))
    }

    @Test("JSON values read ids as strings or integers")
    func identifiers() {
        let value = JSONValue.decode(Data(#"{"a":"u1","b":42,"c":1.5,"d":true,"e":""}"#.utf8))
        #expect(value?["a"]?.identifierValue == "u1")
        #expect(value?["b"]?.identifierValue == "42")
        #expect(value?["c"]?.identifierValue == nil)
        #expect(value?["d"]?.identifierValue == nil)
        #expect(value?["e"]?.identifierValue == nil)
        #expect(value?["missing"] == nil)
    }
}
