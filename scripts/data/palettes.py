"""ColorBrewer palettes (Cynthia Brewer, colorbrewer2.org, Apache-2.0) used for default legends."""

YLORBR7 = ['#ffffd4', '#fee391', '#fec44f', '#fe9929', '#ec7014', '#cc4c02', '#8c2d04']
YLORRD8 = ['#ffffcc', '#ffeda0', '#fed976', '#feb24c', '#fd8d3c', '#fc4e2a', '#e31a1c', '#b10026']
YLORRD7 = ['#ffffb2', '#fed976', '#feb24c', '#fd8d3c', '#fc4e2a', '#e31a1c', '#b10026']
RDYLGN8_REV = ['#1a9850', '#66bd63', '#a6d96a', '#d9ef8b', '#fee08b', '#fdae61', '#f46d43', '#d73027']
GREENS6 = ['#edf8e9', '#c7e9c0', '#a1d99b', '#74c476', '#31a354', '#006d2c']
GREENS5 = ['#edf8e9', '#bae4b3', '#74c476', '#31a354', '#006d2c']
BLUES5 = ['#eff3ff', '#bdd7e7', '#6baed6', '#3182bd', '#08519c']
BLUES4 = ['#eff3ff', '#bdd7e7', '#6baed6', '#2171b5']
PURPLES7 = ['#f2f0f7', '#dadaeb', '#bcbddc', '#9e9ac8', '#807dba', '#6a51a3', '#4a1486']
ORRD7 = ['#fef0d9', '#fdd49e', '#fdbb84', '#fc8d59', '#ef6548', '#d7301f', '#990000']
RDPU7 = ['#feebe2', '#fcc5c0', '#fa9fb5', '#f768a1', '#dd3497', '#ae017e', '#7a0177']
YLGN6 = ['#ffffcc', '#d9f0a3', '#addd8e', '#78c679', '#31a354', '#006837']
BUGN6 = ['#edf8fb', '#ccece6', '#99d8c9', '#66c2a4', '#2ca25f', '#006d2c']
# Sequential for classes ordered low to high (elevation zones): a terrain-like ramp.
TERRAIN7 = ['#1a9850', '#91cf60', '#d9ef8b', '#fee08b', '#fc8d59', '#d73027', '#7f0000']
# Qualitative (Set3, 12 classes) cycled for keys with many classes.
SET3 = ['#8dd3c7', '#ffffb3', '#bebada', '#fb8072', '#80b1d3', '#fdb462', '#b3de69', '#fccde5',
        '#d9d9d9', '#bc80bd', '#ccebc5', '#ffed6f']
SET2_5 = ['#66c2a5', '#fc8d62', '#8da0cb', '#e78ac3', '#a6d854']
# Diverging RdYlBu (5) for income groups (high = blue, low = red) and 7 for economy classes.
RDYLBU5_REV = ['#2c7bb6', '#abd9e9', '#ffffbf', '#fdae61', '#d7191c']
RDYLBU7_REV = ['#4575b4', '#91bfdb', '#e0f3f8', '#ffffbf', '#fee090', '#fc8d59', '#d73027']
