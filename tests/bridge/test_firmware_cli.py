"""`bingo-hall firmware DIR`: the reference firmware copied out of the installed kit (a clone or a
wheel), flat, as the board holds it (firmware/README.md, "Install"). That the copied folder runs
on a real MicroPython is tests/bridge/test_micropython.py."""

from __future__ import annotations

from pathlib import Path

import firmware_bridge

SOURCE = Path(firmware_bridge.__file__).parent
# firmware/README.md's file table: the five firmware modules plus the shared framing.py
BOARD = {
    "framing.py": SOURCE / "framing.py",
    "bhp_device.py": SOURCE / "firmware" / "bhp_device.py",
    "display.py": SOURCE / "firmware" / "display.py",
    "hal_board.py": SOURCE / "firmware" / "hal_board.py",
    "config.py": SOURCE / "firmware" / "config.py",
    "main.py": SOURCE / "firmware" / "main.py",
}


def test_the_firmware_command_copies_the_board_files_flat(tmp_path, kit_cli):
    board = tmp_path / "board"
    code, out, _ = kit_cli(["firmware", str(board)])
    assert code == 0 and str(board) in out
    assert sorted(p.name for p in board.iterdir()) == sorted(BOARD)
    for name, source in BOARD.items():
        assert (board / name).read_bytes() == source.read_bytes(), name


def test_copying_again_updates_the_code_but_keeps_the_hosts_config(tmp_path, kit_cli):
    (tmp_path / "config.py").write_text('KIND = "board"\nDISPLAY = "max7219"\n')
    (tmp_path / "main.py").write_text("# an old firmware\n")
    code, out, _ = kit_cli(["firmware", str(tmp_path)])
    assert code == 0 and "config.py was kept" in out
    assert (tmp_path / "config.py").read_text() == 'KIND = "board"\nDISPLAY = "max7219"\n'
    assert (tmp_path / "main.py").read_bytes() == BOARD["main.py"].read_bytes()


def test_a_folder_that_is_a_file_is_one_line_and_exit_2(tmp_path, kit_cli):
    (tmp_path / "notes.txt").write_text("not a folder")
    code, _, err = kit_cli(["firmware", str(tmp_path / "notes.txt")])
    assert code == 2 and err.count("\n") == 1 and err.startswith("bingo-hall: error:")
