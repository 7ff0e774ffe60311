#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# build_docs.sh: build the reference docs (docs/) into build/docs; any Sphinx warning fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python3 -m sphinx -W --keep-going -q -b html docs build/docs
echo "build_docs.sh: docs built in build/docs"
