from hunter.cli import main

raise SystemExit(main())
