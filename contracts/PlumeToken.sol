// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title Plume (PME): the reward token authors earn for counted downloads.
/// @notice The whole supply is minted once to the platform's treasury, which funds the payout hot wallet.
contract PlumeToken is ERC20 {
    constructor(address treasury, uint256 initialSupply) ERC20("Plume", "PME") {
        _mint(treasury, initialSupply);
    }
}
