/// Renders JSON paths such as `$.exchanges[2].response.status` for issue locations.
package enum JSONPath {
    /// The root.
    package static let root = "$"

    /// The path component for an object member: `.key` for plain keys, `["key"]` otherwise.
    package static func member(_ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "$"
                    || scalar == "-"
            } && !("0"..."9").contains(key.unicodeScalars.first ?? "0")
        return plain ? "." + key : "[" + JSONValue.string(key).compactText + "]"
    }

    /// `path` followed by the member `key`.
    package static func appending(_ path: String, key: String) -> String { path + member(key) }

    /// `path` followed by the array index `index`.
    package static func appending(_ path: String, index: Int) -> String { path + "[\(index)]" }
}
