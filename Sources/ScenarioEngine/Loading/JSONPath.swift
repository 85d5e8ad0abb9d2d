/// Renders JSON paths such as `$.exchanges[2].response.status` for issue locations.
package enum JSONPath {
    /// The root.
    package static let root = "$"

    /// The path component for an object member: `.key` for plain keys, `["key"]` otherwise.
    package static func member(_ key: String) -> String {
        // Bytes, not scalar properties: every plain key is ASCII, and this runs for every key read.
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                    || byte == UInt8(ascii: "-")
            } && !(key.utf8.first.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? true)
        return plain ? "." + key : "[" + JSONValue.string(key).compactText + "]"
    }

    /// `path` followed by the member `key`.
    package static func appending(_ path: String, key: String) -> String { path + member(key) }

    /// `path` followed by the array index `index`.
    package static func appending(_ path: String, index: Int) -> String { path + "[\(index)]" }
}
