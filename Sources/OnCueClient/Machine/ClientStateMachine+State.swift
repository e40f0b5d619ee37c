import Geo
import OnCueContract

extension ClientStateMachine {
    /// Where and when a refresh was asked.
    struct RefreshMark: Sendable, Codable {
        var time: Double
        var unit: UnitVector
    }

    /// A monitored region.
    struct Watched: Sendable, Codable {
        var region: Region
        var role: RegionRole
        /// A small region's wide region.
        var wideKey: String?
        var since: Double
    }

    /// A card waiting for the confirmation delay.
    struct ScheduledCard: Sendable, Codable {
        var wakeId: Int
        var region: Region
        var role: RegionRole
        var trigger: CardTrigger
    }

    /// The platform identifier of a region registered for a role: the role, the id and the geometry, so that a
    /// region the server moved or resized is a new one.
    static func identifier(_ r: Region, _ role: RegionRole) -> String { "\(role.rawValue)|\(r.id)|\(r.lat)|\(r.lon)|\(r.radiusMeters)" }

    /// The store locations a region stands for: its id without a split-venue `#n` suffix, plus merged ids.
    public static func locationIds(of r: Region) -> [String] {
        guard r.kind != .refresh else { return [] }
        let base = r.id.split(separator: "#", maxSplits: 1).first.map(String.init) ?? r.id
        return [base] + (r.mergedLocationIds ?? [])
    }

    func notifiesOnDwell(_ role: RegionRole) -> Bool { platform.storeRegionsNotifyOnDwell && (role == .store || role == .small) }
}
