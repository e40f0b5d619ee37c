/// How the app keeps its regions and confirms a visit, as the study names its strategies: a base — `document`,
/// `fixed`, `guaranteed`, `bubble` or `staged` — with modifiers: `+clamp` asks the server for no region below the
/// platform's reliable minimum radius, `+gps` confirms the stay with the app's own GPS before posting the card,
/// `+motion` rests that GPS while the motion sensor says the person walks, and `@N` asks for N regions
/// (`guaranteed+clamp+gps+motion`, `staged@16`). Coded as its spec.
public struct ClientStrategy: Sendable, Hashable {
    public enum Threshold: String, Sendable, Hashable, Codable {
        /// max(largest region radius, `fixed_minimum_meters`): the product document.
        case fixed
        /// The server's `refresh_after_meters` (the guaranteed refresh distance).
        case server
    }

    /// The spec it was parsed from.
    public private(set) var spec: String
    public var threshold: Threshold = .server
    /// Ask the server for a refresh region and refresh when the phone leaves it.
    public var refreshRegion = false
    /// Regions asked of the server (for `staged`: wide regions and small ones together, within the platform's limit).
    public var maxRegions = 20
    /// Keep unchanged regions (and the OS's state for them) instead of stopping all and starting all.
    public var diff = true
    /// Ask the OS for the state of newly added regions (catches the store the phone is already in).
    public var requestState = true
    /// The product document's pseudo-code exactly: refresh only when moved ≥ threshold AND 6 h passed, on launch and
    /// significant-change wakes only.
    public var literal = false
    /// Ask for no region smaller than the platform's reliable minimum radius.
    public var clamp = false
    /// Wide regions wake the app, which then watches the store's own small region until arrival.
    public var staged = false
    /// When the OS reports the person near a store, the app's own GPS decides: the card once they have stayed.
    public var gps = false
    /// With `gps`: GPS rests while the motion sensor says the person walks (no stay can be under way).
    public var motion = false

    public static let bases = ["document", "fixed", "guaranteed", "bubble", "staged"]
    public static let modifiers = ["clamp", "gps", "motion"]

    /// A spec's strategy; `ClientSettingsError.invalid` names what is wrong with it.
    public static func parse(_ spec: String) throws(ClientSettingsError) -> ClientStrategy {
        let parts = spec.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        var s = ClientStrategy(spec: spec)
        if parts.count == 2 {
            guard let n = Int(parts[1]), (1...100).contains(n) else { throw .invalid("strategy '\(spec)': @N must be 1...100") }
            s.maxRegions = n
        }
        let words = (parts.first.map(String.init) ?? "").split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        switch words.first ?? "" {
        case "document":
            s.threshold = .fixed
            s.diff = false
            s.requestState = false
            s.literal = true
        case "fixed": s.threshold = .fixed
        case "guaranteed": break
        case "bubble": s.refreshRegion = true
        case "staged": s.staged = true
        default:
            throw .invalid("unknown strategy '\(spec)' (expected \(bases.joined(separator: ", ")), optionally +clamp, +gps, +motion and @N)")
        }
        for modifier in words.dropFirst() {
            switch modifier {
            case "clamp": s.clamp = true
            case "gps": s.gps = true
            case "motion": s.motion = true
            default: throw .invalid("strategy '\(spec)': '+\(modifier)' is not a modifier (+clamp, +gps or +motion)")
            }
        }
        if s.motion && !s.gps { throw .invalid("strategy '\(spec)': +motion rests the app's GPS, so it needs +gps") }
        return s
    }

    private init(spec: String) { self.spec = spec }
}

extension ClientStrategy: Codable {
    public init(from decoder: any Decoder) throws {
        let spec = try decoder.singleValueContainer().decode(String.self)
        do { self = try Self.parse(spec) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(spec)
    }
}

/// Settings the client cannot work with.
public enum ClientSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        }
    }
}
