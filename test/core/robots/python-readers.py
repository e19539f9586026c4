"""Reads robots.txt files with Python's urllib.robotparser and with Protego.

Test helper for test/robots/python.ts. Reads one JSON document on stdin:
  {"files": [{"text": "...", "queries": [["crawler", "https://example.com/path"], ...]}, ...]}
and writes one on stdout:
  {"results": [[[urllib_allowed, protego_allowed], ...], ...]}
Each file is parsed once by each reader, as a crawler would.
"""
import json
import sys
import urllib.robotparser

from protego import Protego


def read(entry):
    text = entry["text"]
    python = urllib.robotparser.RobotFileParser()
    # What RobotFileParser.read() does with a fetched body.
    python.parse(text.splitlines())
    protego = Protego.parse(text)
    return [[python.can_fetch(name, url), protego.can_fetch(url, name)] for name, url in entry["queries"]]


def main():
    request = json.load(sys.stdin)
    json.dump({"results": [read(entry) for entry in request["files"]]}, sys.stdout)


main()
