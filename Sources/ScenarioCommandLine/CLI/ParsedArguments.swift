/// A command line split into options and positional arguments, checked against a command's options.
struct ParsedArguments: Sendable, Equatable {
    /// Values by long option name, in the order given.
    var values: [String: [String]] = [:]
    /// Flags given, by long name.
    var flags: Set<String> = []
    /// Positional arguments in order.
    var positionals: [String] = []

    /// The scenario files and folders named, or the default folder when none is.
    var scenarioPaths: [String] { positionals.isEmpty ? [RunCommand.defaultPath] : positionals }

    /// Whether a flag was given.
    func has(_ long: String) -> Bool { flags.contains(long) }

    /// The value of a single-valued option.
    func value(_ long: String) -> String? { values[long]?.last }

    /// Every value of a repeatable option.
    func all(_ long: String) -> [String] { values[long] ?? [] }

    /// Whether the option was given at all.
    func contains(_ long: String) -> Bool { has(long) || values[long] != nil }
}
