"""FRICTION_WALK: a walking-only friction surface (minutes per metre) for catchments (issue 19).

Self-contained step of the data build: build_bundle.py calls walk_minutes_per_metre() on the
bundle's SLOPE and LAND_SHARE arrays and catalog.py appends record(). The engine recognises a
friction surface by its catalog record: type continuous and unit "minutes per metre" (this
record also carries cat3 "Friction surface" for browsing).

Tobler (1993) hiking function: speed (km/h) = 6 exp(-3.5 |tan(slope) + 0.05|), slope from the
cell's SLOPE (degrees, Horn gradient magnitude of the 5-arc-minute ETOPO5 surface). SLOPE has no
direction, so every step is costed as if uphill along the steepest gradient: |tan(s) + 0.05| =
tan(s) + 0.05 >= 0.05, i.e. 5.04 km/h on flat ground (Tobler's 6 km/h is reached only on a 2.86
degree descent). minutes per metre = 60 / (1000 * speed).

Water: a cell is passable, at the walking speed of its slope, where any of it is land in GSHHG
(LAND_SHARE > 0), and impassable (no-data, a barrier) where it is all water (sea, the open parts
of large lakes such as Lake Victoria). This is the rule of the Malaria Atlas Project friction
surfaces (Weiss et al. 2018, Nature 553; the 2019 surfaces, Weiss et al. 2020): each pixel takes
the speed of the fastest travel mode found in it, so a pixel with some land is crossed at the
land's speed. Its limit on 9 km cells (AccessMod's manual warns of the same "artificial bridges"
when rasterizing roads and rivers on coarse grids, section 3.3.1.1): a strip of water narrower
than about a cell between part-land cells (a lagoon, a river, a strait) is crossed as if bridged.
Checked on the built surface: Lake Victoria, Lake Tanganyika, the Zanzibar and Pemba channels,
Bioko, Mafia and Sao Tome stay barriers (tests/catchment/friction-water.test.ts). Until
2026-11-27 the rule was "barrier below 50 % land", which left Ikoyi and Victoria Island in Lagos
(43 % land, bridged to Lagos Island in reality) and the Kinshasa river front (49 %) as no-data,
reached from nowhere. No boat speed is assumed.
"""
from __future__ import annotations

import numpy as np

#: Cells with no more land than this share (percent, GSHHG) are barriers: all-water cells (see the module docstring).
MAX_BARRIER_LAND_SHARE_PCT = 0.0
#: Decimals the layer is stored with (relative precision better than 1e-5 at 0.0119).
STORE_DEC = 7
#: Legend breaks, minutes per metre (0.01191 is flat ground).
BREAKS = [0, 0.012, 0.0125, 0.013, 0.014, 0.016, 1]


def tobler_kmh(slope_deg: np.ndarray) -> np.ndarray:
    """Tobler (1993) walking speed, km/h, costing each cell's slope as uphill."""
    return 6.0 * np.exp(-3.5 * np.abs(np.tan(np.radians(slope_deg)) + 0.05))


def walk_minutes_per_metre(slope_deg: np.ndarray, land_share_pct: np.ndarray) -> np.ndarray:
    """FRICTION_WALK values: minutes per metre; NaN where the slope is unknown or the cell holds no land."""
    mpm = 60.0 / (1000.0 * tobler_kmh(slope_deg))
    return np.where(np.isfinite(slope_deg) & (land_share_pct > MAX_BARRIER_LAND_SHARE_PCT), mpm, np.nan)


def record(continuous, srcs: dict, common: dict, grid_note: str, colors: list[str]) -> dict:
    """The catalog record of FRICTION_WALK (continuous: catalog.continuous)."""
    return continuous(
        'FRICTION_WALK', BREAKS, colors, 'minutes per metre',
        labels=['<= 0.012 (flat)', '0.012 - 0.0125', '0.0125 - 0.013', '0.013 - 0.014', '0.014 - 0.016', '> 0.016'],
        varLabel='Walking friction surface (Tobler, ETOPO5 slope)',
        varTitle='Minutes needed to walk one metre across the cell (walking only)',
        varDesc=(
            'Friction surface for travel-time catchments: the minutes needed to cross one metre of the cell on '
            'foot, the convention of the Malaria Atlas Project friction surfaces (Weiss et al. 2018, 2020). '
            'Walking speed from Tobler\'s (1993) hiking function, 6 exp(-3.5 |tan(slope) + 0.05|) km/h, on the '
            'cell\'s SLOPE (degrees, ETOPO5); SLOPE has no direction, so every cell is costed as if walked uphill '
            'along its steepest gradient (5.04 km/h, 0.0119 minutes per metre, on flat ground); minutes per '
            'metre = 60 / (1000 x speed). Water: a cell with any land in GSHHG (LAND_SHARE above 0) is crossed at '
            'the walking speed of its slope, as the Malaria Atlas Project surfaces give each pixel the speed of the '
            'fastest mode found in it (Weiss et al. 2018); cells all water (sea, the open parts of large lakes) are '
            'no-data: barriers, no boat crossing is assumed; cells without SLOPE are no-data too. On 9 km cells a '
            'strip of water narrower than about a cell between part-land cells (a lagoon, a river, a strait such as '
            'Lagos lagoon or the Congo at Kinshasa) is therefore crossed as if bridged (the "artificial bridges" '
            'AccessMod\'s manual warns of on coarse grids); wider water (Lake Victoria, Lake Tanganyika, the '
            'Zanzibar channel, Bioko) stays a barrier. '
            'What it leaves out: roads, tracks and motorised transport, land cover (forest, swamp, cropland), '
            'rivers and the bridges or fords over them, and borders; it is a walking-only surface, so travel '
            'times are those of a walker on open ground everywhere. At 5 arc-minutes (about 9 km) a cell\'s '
            'slope is a regional slope that flattens hills and escarpments, so times in rugged terrain are '
            'underestimated. For motorised travel times ingest a real friction surface (for example the '
            'Malaria Atlas Project global motorised friction surface 2019) with the ingest CLI\'s --raster '
            'option: see the README. Stored to 1e-7 minutes per metre. ' + grid_note),
        dec='5', aggFunR='weighted.mean(FRICTION_WALK, AREA_TOTAL, na.rm=TRUE)',
        cat1='Accessibility', cat2='Travel time', cat3='Friction surface',
        **dict(srcs, citation=srcs['citation'] + ' Tobler W (1993). Three presentations on geographical analysis '
               'and modeling: non-isotropic geographic modeling speculations on the geometry of geography. '
               'NCGIA Technical Report 93-1.'),
        **common)
