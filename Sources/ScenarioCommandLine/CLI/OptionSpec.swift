/// One option a command accepts.
struct OptionSpec: Sendable, Hashable {
    /// The long name with its dashes: `--jobs`.
    let long: String
    /// The short name with its dash, if any: `-j`.
    let short: String?
    /// The value placeholder for options that take one (`N`, `PATH`); `nil` for flags.
    let placeholder: String?
    /// Whether it may be given more than once (values accumulate).
    let repeatable: Bool
    /// One line for `--help`.
    let help: String

    /// A flag (no value).
    static func flag(_ long: String, short: String? = nil, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, placeholder: nil, repeatable: false, help: help)
    }

    /// An option with a value.
    static func value(_ long: String, short: String? = nil, _ placeholder: String, repeatable: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, placeholder: placeholder, repeatable: repeatable, help: help)
    }

    /// Whether it takes a value.
    var takesValue: Bool { placeholder != nil }

    /// `-j, --jobs N` as shown in help.
    var synopsis: String {
        let names = (short.map { "\($0), " } ?? "    ") + long
        return placeholder.map { "\(names) \($0)" } ?? names
    }

    /// `--help` / `-h`, which every command has.
    static let help = OptionSpec.flag("--help", short: "-h", "Show this help")
}
